import type { OrderEventRecord } from "../../store/store.js";
import { ORDER_STATUSES, type OrderStatus } from "../orders/lifecycle.js";

/** The creation, and each status an order can move to (a change is delivered as `order.<to>`). */
export type WebhookEventType = "order.created" | `order.${Exclude<OrderStatus, "received">}`;

/** The event types a webhook endpoint can subscribe to, in the lifecycle's order. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  "order.created",
  ...ORDER_STATUSES.filter((s) => s !== "received").map((s) => `order.${s}` as WebhookEventType),
];

/**
 * What a partner fires at one of its endpoints to check its receiver (POST …/{id}/test): queued
 * for that endpoint only, whatever it subscribes to, never fanned out.
 */
export { TEST_EVENT_TYPE } from "../../store/webhook-store.js";

/** Subscribes to every type, those added later included. */
export const ALL_EVENTS = "*";

/** The type an outbox event is delivered as. */
export function deliveredType(event: Pick<OrderEventRecord, "type" | "to">): WebhookEventType {
  return (
    event.type === "order.created" ? "order.created" : `order.${event.to}`
  ) as WebhookEventType;
}

/** Event ids as receivers see them: the outbox id behind `evt_`. */
export const EVENT_ID_PREFIX = "evt_";
export const publicEventId = (id: string): string => `${EVENT_ID_PREFIX}${id}`;
/** The outbox id of a public event id; undefined when it does not have that shape. */
export function outboxEventId(publicId: string): string | undefined {
  return publicId.startsWith(EVENT_ID_PREFIX) ? publicId.slice(EVENT_ID_PREFIX.length) : undefined;
}
