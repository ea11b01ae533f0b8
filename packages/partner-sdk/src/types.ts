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
  [field: string]: unknown;
}

export interface SalesOrder {
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
    quantity: number;
    uom: string | null;
    unit_price: number | string | null;
    notes: string | null;
  }[];
  created_at: string;
  [field: string]: unknown;
}

export interface SalesOrderPage {
  data: SalesOrder[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}
