/**
 * A sales order and its history as the tenant API answers them: the gateway's own types
 * (type-only imports, nothing of the gateway ships in the bundle).
 */
import type {
  OrderChange,
  OrderData,
} from "../../../../packages/gateway/src/domain/orders/service.js";

export type { OrderChange };
export type Order = OrderData;

/** `GET /v1/orders/{id}`: the order with its history (the listing has none). */
export type OrderDetail = Order & { history: OrderChange[] };
