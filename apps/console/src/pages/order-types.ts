/** A sales order as the tenant API answers it (read-only for now). */
export interface Order {
  id: string;
  order_number: string;
  status: string;
  client_id: string;
  purchase_order_no: string | null;
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
}
