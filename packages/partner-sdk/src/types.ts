/*
 * The gateway's order contract, written out so the published package stands alone (no
 * dependency on the gateway); test/contract-types.test.ts fails when it and the gateway's
 * (`@orderline/gateway/contract`) differ in any field.
 */

/** One order line as sent (ProductDto). */
export interface ProductInput {
  product_code: string;
  quantity: number;
  uom?: string;
  unit_price?: number | string;
  notes?: string;
}

/** The body of a sales order creation. */
export interface SalesOrderInput {
  customer_code: string;
  site_code: string;
  sales_name: string;
  address: string;
  purchase_order_no?: string | null;
  /** ISO 4217 code of the prices' currency, where the gateway supports it. */
  currency?: string | null;
  products: ProductInput[];
}

/** received → accepted | rejected | cancelled; accepted → fulfilled | cancelled. */
export type OrderStatus = "received" | "accepted" | "rejected" | "fulfilled" | "cancelled";

export interface SalesOrder {
  id: string;
  order_number: string;
  status: OrderStatus;
  client_id: string;
  purchase_order_no: string | null;
  /** ISO 4217 code of the prices' currency, or null when the order did not name one. */
  currency: string | null;
  customer_code: string;
  site_code: string;
  sales_name: string;
  address: string;
  products: {
    line_no: number;
    product_code: string;
    quantity: number;
    uom: string | null;
    /** Exactly as sent (a decimal string arrives as the same number). */
    unit_price: number | null;
    notes: string | null;
  }[];
  created_at: string;
  /** 1 at creation, +1 on every status change; the ETag is this number in quotes. */
  version: number;
  /** The last status change (created_at until the first). */
  updated_at: string;
}

/** One entry of an order's history: its creation (`from: null`) or a status change. */
export interface OrderChange {
  from: OrderStatus | null;
  to: OrderStatus;
  at: string;
  reason: string | null;
  /** A partner is named by its client_id; a tenant user's name is null for partners. */
  actor: { type: "partner" | "user"; name: string | null };
}

/** One order as `get` and `cancel` return it: with its history, oldest first. */
export interface SalesOrderDetail extends SalesOrder {
  history: OrderChange[];
}

export interface SalesOrderPage {
  data: SalesOrder[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}
