/** A sales order as the tenant API answers it. */
export interface Order {
  id: string;
  order_number: string;
  status: string;
  client_id: string;
  purchase_order_no: string | null;
  currency?: string | null;
  customer_code: string;
  site_code: string;
  sales_name: string;
  address: string;
  products: {
    line_no: number;
    product_code: string;
    quantity: number | string;
    uom: string | null;
    unit_price: number | string | null;
    notes: string | null;
  }[];
  created_at: string;
  version: number;
  updated_at: string;
}

/** One entry of an order's history: its creation (`from` null), then every status change. */
export interface OrderChange {
  from: string | null;
  to: string;
  at: string;
  reason: string | null;
  actor: { type: "partner" | "user"; name: string | null };
}

/** `GET /v1/orders/{id}`: the order with its history, and the ETag to send back as If-Match. */
export interface OrderDetail extends Order {
  history: OrderChange[];
}
