/**
 * A sales order and its history as the tenant API answers them: the gateway's contract
 * (`@orderline/gateway/contract`: types and constants, no server code).
 */
import type { OrderChange, TenantOrderData } from "@orderline/gateway/contract";

export type { OrderChange };
/** An order as the tenant reads it: with its partner's name, line totals and total. */
export type Order = Omit<TenantOrderData, "history">;

/** `GET /v1/orders/{id}`: the order with its history (the listing has none). */
export type OrderDetail = Order & { history: OrderChange[] };

/** `GET /v1/orders`: a page, its cursor and how many match. */
export interface OrderPage {
  data: Order[];
  next_cursor: string | null;
  total: { count: number; exact: boolean };
}

/** `POST /v1/tenant/orders/bulk`: one result per order. */
export interface BulkOutcome {
  action: string;
  results: {
    id: string;
    status: number;
    outcome: "moved" | "unchanged" | "failed";
    order?: Order;
    problem?: { code: string; detail: string; current_status?: string };
  }[];
  summary: { requested: number; moved: number; unchanged: number; failed: number };
  more_matching: boolean;
}
