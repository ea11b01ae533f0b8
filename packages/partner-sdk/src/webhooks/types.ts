import type { OrderStatus, SalesOrderDetail } from "../types.js";

/** The event types an endpoint can subscribe to; a status change is `order.<new status>`. */
export type WebhookEventType =
  | "order.created"
  | "order.accepted"
  | "order.rejected"
  | "order.fulfilled"
  | "order.cancelled";

/** The status change an event reports (absent for `order.created`). */
export interface WebhookOrderChange {
  from: OrderStatus;
  to: OrderStatus;
  reason: string | null;
  by: "tenant_user" | "partner";
}

/** One delivery's body, once verified. */
export interface WebhookEvent {
  /** `evt_…`: the same on every retry of this event; de-duplicate on it. */
  id: string;
  /** A type this SDK does not know yet is passed through as its string. */
  type: WebhookEventType | (string & {});
  created_at: string;
  data: {
    /** The order as `GET /api/v1/sales-orders/{id}` showed it right after the event. */
    order: SalesOrderDetail;
    change?: WebhookOrderChange;
  };
}
