import type { OrderChangeRecord, OrderEventRecord, SalesOrderRecord } from "../../store/store.js";
import type { WebhookTestEventRecord } from "../../store/webhook-store.js";
import { ORDER_STATUSES, type OrderStatus } from "../orders/lifecycle.js";
import { ORDER_DETAIL } from "../orders/schemas.js";
import { historyOf, type OrderChange, type OrderData, toOrderData } from "../orders/service.js";
import {
  deliveredType,
  EVENT_ID_PREFIX,
  publicEventId,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "./event-types.js";

/** The status change an `order.<status>` event reports (absent from `order.created`). */
export interface EventPayloadChange {
  from: OrderStatus;
  to: OrderStatus;
  reason: string | null;
  by: "tenant_user" | "partner";
}

/** The JSON body of a delivery (the webhook contract; its JSON Schema is EVENT_PAYLOAD below). */
export interface EventPayload {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: {
    order: OrderData & { history: OrderChange[] };
    change?: EventPayloadChange;
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
      // The store holds only the lifecycle's statuses.
      from: (event.from ?? last.from) as OrderStatus,
      to: event.to as OrderStatus,
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
// biome-ignore lint/suspicious/noExplicitAny: JSON Schemas are open-ended JSON.
type Schema = any;

/** The schema with every object closed: a field the schema does not name is a drift, not data. */
function closed(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closed(v)]));
  if (schema.properties !== undefined) {
    out.additionalProperties = false;
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, closed(v)]),
    );
  }
  return out;
}

/** The status an order is in when an event of `type` is sent. */
const statusAfter = (type: WebhookEventType): OrderStatus =>
  type === "order.created" ? "received" : (type.slice("order.".length) as OrderStatus);

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 uses) of the body of one event type: the single
 * description of the webhook contract. /openapi/partner.json publishes it under `webhooks`, and
 * the tests validate real deliveries against the published document.
 */
function eventPayloadSchema(type: WebhookEventType): Schema {
  const status = statusAfter(type);
  const created = type === "order.created";
  const order = {
    ...ORDER_DETAIL,
    description: `The order as GET /api/v1/sales-orders/{id} showed it right after the event`,
    properties: { ...ORDER_DETAIL.properties, status: { type: "string", const: status } },
  };
  const change = {
    type: "object",
    description: "The status change this event reports",
    required: ["from", "to", "reason", "by"],
    properties: {
      from: { type: "string", enum: [...ORDER_STATUSES] },
      to: { type: "string", const: status },
      reason: { type: ["string", "null"], description: "Why, as the mover gave it" },
      by: {
        type: "string",
        enum: ["tenant_user", "partner"],
        description: "Who moved the order: one of the tenant's users, or the partner itself",
      },
    },
  };
  return closed({
    type: "object",
    required: ["id", "type", "created_at", "data"],
    properties: {
      id: {
        type: "string",
        pattern: `^${EVENT_ID_PREFIX}`,
        description:
          "The event id: the same on every attempt and resend (also in Orderline-Event-Id); de-duplicate on it",
      },
      type: { type: "string", const: type },
      created_at: { type: "string", format: "date-time", description: "When the event happened" },
      data: {
        type: "object",
        required: created ? ["order"] : ["order", "change"],
        properties: created ? { order } : { order, change },
      },
    },
  });
}

/** Every event type's payload schema, by type. */
const EVENT_PAYLOAD_SCHEMAS: Record<WebhookEventType, Schema> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [type, eventPayloadSchema(type)]),
) as Record<WebhookEventType, Schema>;

/** The JSON Schema of a `webhook.test` delivery's body (published under `webhooks` too). */
const TEST_EVENT_PAYLOAD_SCHEMA: Schema = closed({
  type: "object",
  required: ["id", "type", "created_at", "data"],
  properties: {
    id: { type: "string", pattern: `^${EVENT_ID_PREFIX}`, description: "The test event's id" },
    type: { type: "string", const: TEST_EVENT_TYPE },
    created_at: { type: "string", format: "date-time", description: "When it was fired" },
    data: {
      type: "object",
      required: ["endpoint_id", "message"],
      properties: {
        endpoint_id: { type: "string", description: "we_…: the endpoint it was fired at" },
        message: { type: "string", description: "For people: this event carries no order" },
      },
    },
  },
});

/** Every body a partner's endpoint can receive, by type: the order events and the test event. */
export const DELIVERED_PAYLOAD_SCHEMAS: Record<string, Schema> = {
  ...EVENT_PAYLOAD_SCHEMAS,
  [TEST_EVENT_TYPE]: TEST_EVENT_PAYLOAD_SCHEMA,
};
