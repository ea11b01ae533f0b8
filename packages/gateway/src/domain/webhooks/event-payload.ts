import type { OrderChangeRecord, OrderEventRecord, SalesOrderRecord } from "../../store/store.js";
import type { WebhookTestEventRecord } from "../../store/webhook-store.js";
import { historyOf, type OrderData, toOrderData } from "../orders/service.js";
import { deliveredType, publicEventId, TEST_EVENT_TYPE } from "./event-types.js";

/** The JSON body of a delivery (the webhook contract). */
export interface EventPayload {
  id: string;
  type: string;
  created_at: string;
  data: {
    order: OrderData;
    change?: { from: string; to: string; reason: string | null; by: "tenant_user" | "partner" };
  };
}

/** The JSON body of a `webhook.test` delivery: no order, the endpoint it was fired at. */
export interface TestEventPayload {
  id: string;
  type: typeof TEST_EVENT_TYPE;
  created_at: string;
  data: { endpoint_id: string; message: string };
}

export function testEventPayload(event: WebhookTestEventRecord): TestEventPayload {
  return {
    id: publicEventId(event.id),
    type: TEST_EVENT_TYPE,
    created_at: new Date(event.createdAt).toISOString(),
    data: {
      endpoint_id: event.endpointId,
      message:
        "A test event fired through the API: it carries no order. Verify its signature like any delivery.",
    },
  };
}

/**
 * The delivery body of `event`: the order as `GET /api/v1/sales-orders/{id}` showed it right
 * after the event (status, version, updated_at and history up to that change), not as it is
 * now, so every attempt and every resend of one event carries the same order. Each status change
 * wrote one history row and one outbox row in the same transaction, so the event's place among
 * the order's status-change events is its place in the history.
 */
export function eventPayload(
  event: OrderEventRecord,
  order: SalesOrderRecord,
  clientId: string,
  orderEvents: readonly OrderEventRecord[],
  history: readonly OrderChangeRecord[],
): EventPayload {
  const changesSoFar = orderEvents.filter(
    (e) => e.type === "order.status_changed" && e.seq <= event.seq,
  ).length;
  const changes = history.slice(0, changesSoFar);
  const last = changes.at(-1);
  const then: SalesOrderRecord = {
    ...order,
    status: event.to,
    version: 1 + changes.length,
    updatedAt: last?.at ?? order.createdAt,
  };
  const payload: EventPayload = {
    id: publicEventId(event.id),
    type: deliveredType(event),
    created_at: new Date(event.createdAt).toISOString(),
    data: {
      order: { ...toOrderData(then, clientId), history: historyOf(then, clientId, changes, false) },
    },
  };
  if (event.type === "order.status_changed" && last !== undefined) {
    payload.data.change = {
      from: event.from ?? last.from,
      to: event.to,
      reason: event.reason,
      by: last.actor.type === "user" ? "tenant_user" : "partner",
    };
  }
  return payload;
}
