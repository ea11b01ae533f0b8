/**
 * The SDK's order and webhook types against the gateway's contract (src/contract/index.ts of the
 * gateway): this file does not compile when the two differ in any field, its type or whether it
 * is optional. test/contract-types.test.ts compiles it; `npm run typecheck` does too.
 */
import type * as Gateway from "../../../gateway/src/contract/index.js";
import type {
  OrderChange,
  OrderStatus,
  ProductInput,
  SalesOrder,
  SalesOrderDetail,
  SalesOrderInput,
  WebhookEvent,
  WebhookEventType,
  WebhookOrderChange,
} from "../../src/index.js";

/** true when each type is assignable to the other: the same fields, types and optionality. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

type GatewayProduct = Gateway.CreateOrderBody["products"][number];

export const SAME_AS_THE_GATEWAY = {
  status: true satisfies Same<OrderStatus, Gateway.OrderStatus>,
  order: true satisfies Same<SalesOrder, Omit<Gateway.OrderData, "history">>,
  orderDetail: true satisfies Same<
    SalesOrderDetail,
    Omit<Gateway.OrderData, "history"> & { history: Gateway.OrderChange[] }
  >,
  change: true satisfies Same<OrderChange, Gateway.OrderChange>,
  orderInput: true satisfies Same<SalesOrderInput, Gateway.CreateOrderBody>,
  productInput: true satisfies Same<ProductInput, GatewayProduct>,
  eventType: true satisfies Same<WebhookEventType, Gateway.WebhookEventType>,
  eventChange: true satisfies Same<WebhookOrderChange, Gateway.EventPayloadChange>,
  // The SDK passes an event type it does not know yet through as text: one way only.
  event: true satisfies [Gateway.EventPayload] extends [WebhookEvent] ? true : false,
};
