/**
 * The gateway's contract with its clients (the console, the partner SDK's types): what the APIs
 * answer and the constants they check against. Types and pure constants only, with no server
 * code behind them, so a browser bundle can import it: `@orderline/gateway/contract`, built to
 * dist/contract/. Each export re-exports its one definition from where the gateway uses it;
 * test/contract.test.ts checks that importing this pulls in no server module.
 */

export type { AuditEventView } from "../domain/audit/views.js";
export {
  type Mover,
  nextStatuses,
  ORDER_STATUSES,
  type OrderAction,
  type OrderStatus,
  TRANSITIONS,
  type Transition,
  transitionFor,
} from "../domain/orders/lifecycle.js";
export type { OverviewData } from "../domain/orders/overview.js";
export type { CreateOrderBody, OrderChange, OrderData } from "../domain/orders/service.js";
export type { TenantOrderData } from "../domain/orders/tenant-orders.js";
export type { AttemptView, EndpointView } from "../domain/webhooks/endpoint-admin.js";
export type { EventPayload, EventPayloadChange } from "../domain/webhooks/event-payload.js";
export {
  ALL_EVENTS,
  EVENT_ID_PREFIX,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "../domain/webhooks/event-types.js";
export { INPUT_LIMITS } from "../lib/input-limits.js";
