import type { OrderEventRecord } from "../../store/store.js";
import { ORDER_STATUSES } from "../orders/lifecycle.js";

/**
 * The event types a webhook endpoint can subscribe to: the creation, and each status an order
 * can move to (a status change is delivered as `order.<to_status>`).
 */
export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  ...ORDER_STATUSES.filter((s) => s !== "received").map((s) => `order.${s}`),
] as const;

/**
 * What a partner fires at one of its endpoints to check its receiver (POST …/{id}/test): queued
 * for that endpoint only, whatever it subscribes to, never fanned out.
 */
export { TEST_EVENT_TYPE } from "../../store/webhook-store.js";

/** Subscribes to every type, those added later included. */
export const ALL_EVENTS = "*";

/** The type an outbox event is delivered as. */
export function deliveredType(event: Pick<OrderEventRecord, "type" | "to">): string {
  return event.type === "order.created" ? "order.created" : `order.${event.to}`;
}

/** Event ids as receivers see them: the outbox id behind `evt_`. */
export const EVENT_ID_PREFIX = "evt_";
export const publicEventId = (id: string): string => `${EVENT_ID_PREFIX}${id}`;
/** The outbox id of a public event id; undefined when it does not have that shape. */
export function outboxEventId(publicId: string): string | undefined {
  return publicId.startsWith(EVENT_ID_PREFIX) ? publicId.slice(EVENT_ID_PREFIX.length) : undefined;
}
