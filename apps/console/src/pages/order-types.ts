/**
 * A sales order and its history as the tenant API answers them: the gateway's contract
 * (`@orderline/gateway/contract`: types and constants, no server code).
 */
import type { OrderChange, OrderData } from "@orderline/gateway/contract";

export type { OrderChange };
export type Order = OrderData;

/** `GET /v1/orders/{id}`: the order with its history (the listing has none). */
export type OrderDetail = Order & { history: OrderChange[] };
