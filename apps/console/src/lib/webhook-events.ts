/**
 * The event types a webhook endpoint can subscribe to, from the gateway's own list (pure, like
 * the lifecycle it derives them from), so the checkboxes never offer a type the API refuses.
 */
export {
  ALL_EVENTS,
  WEBHOOK_EVENT_TYPES,
} from "@orderline/gateway/contract";
