import type { OrderChangeRecord, OrderEventRecord, SalesOrderRecord } from "../../store/store.js";
import { historyOf, type OrderData, toOrderData } from "../orders/service.js";
import { deliveredType, publicEventId } from "./event-types.js";

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
  const { then, changes } = orderAtEvent(event, order, orderEvents, history);
  const last = changes.at(-1);
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

/**
 * The order as it was right after `event` (status, version, updated_at), with the history rows
 * up to that change: what a delivery and a live stream show, whatever happened to it since.
 */
export function orderAtEvent(
  event: OrderEventRecord,
  order: SalesOrderRecord,
  orderEvents: readonly OrderEventRecord[],
  history: readonly OrderChangeRecord[],
): { then: SalesOrderRecord; changes: OrderChangeRecord[] } {
  const changesSoFar = orderEvents.filter(
    (e) => e.type === "order.status_changed" && e.seq <= event.seq,
  ).length;
  const changes = history.slice(0, changesSoFar);
  const then: SalesOrderRecord = {
    ...order,
    status: event.to,
    version: 1 + changes.length,
    updatedAt: changes.at(-1)?.at ?? order.createdAt,
  };
  return { then, changes };
}
