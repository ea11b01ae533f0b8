import type { OrderChangeRecord, SalesOrderRecord } from "../../store/store.js";
import type { OrderStatus } from "./lifecycle.js";

/**
 * How an order reads in the APIs: the representation both the partner and the tenant surfaces
 * answer with (the tenant's adds its totals in tenant-orders.ts). Pure functions of the records.
 */

/** An order as the partner and tenant APIs answer it (the contract: contract/index.ts). */
export interface OrderData {
  id: string;
  order_number: string;
  status: OrderStatus;
  client_id: string;
  purchase_order_no: string | null;
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
    unit_price: number | null;
    notes: string | null;
  }[];
  created_at: string;
  version: number;
  updated_at: string;
  history?: OrderChange[];
}

export interface OrderChange {
  from: OrderStatus | null;
  to: OrderStatus;
  at: string;
  reason: string | null;
  /** Who moved it; a tenant user's email is shown to the tenant only. */
  actor: { type: "partner" | "user"; name: string | null };
}

/** The store writes only the lifecycle's statuses (every move comes from TRANSITIONS). */
const statusOf = (stored: string): OrderStatus => stored as OrderStatus;

/** The history as shown: the creation first, then every change. */
export function historyOf(
  order: SalesOrderRecord,
  clientId: string,
  changes: OrderChangeRecord[],
  showUsers: boolean,
): OrderChange[] {
  return [
    {
      from: null,
      to: "received",
      at: new Date(order.createdAt).toISOString(),
      reason: null,
      actor: { type: "partner", name: clientId },
    },
    ...changes.map((c) => ({
      from: statusOf(c.from),
      to: statusOf(c.to),
      at: new Date(c.at).toISOString(),
      reason: c.reason,
      actor: {
        type: c.actor.type,
        name: c.actor.type === "partner" || showUsers ? c.actor.name : null,
      },
    })),
  ];
}

export const INITIAL_STATUS = "received";

/** Per partner: a partner's orders are SO-00000001, SO-00000002 …, whatever others send. */
export function orderNumberOf(partnerSeq: number): string {
  return `SO-${String(partnerSeq).padStart(8, "0")}`;
}

/** The order as the API shows it: every optional product field present, null when not sent. */
export function toOrderData(order: SalesOrderRecord, clientId: string): OrderData {
  const createdAt = new Date(order.createdAt).toISOString();
  return {
    id: order.id,
    order_number: orderNumberOf(order.partnerSeq),
    status: statusOf(order.status),
    client_id: clientId,
    purchase_order_no: order.purchaseOrderNo,
    currency: order.currency ?? null,
    customer_code: order.customerCode,
    site_code: order.siteCode,
    sales_name: order.salesName,
    address: order.address,
    products: order.products.map((p, i) => ({
      line_no: i + 1,
      product_code: p.product_code,
      quantity: p.quantity,
      uom: p.uom ?? null,
      unit_price: p.unit_price ?? null,
      notes: p.notes ?? null,
    })),
    created_at: createdAt,
    version: order.version,
    // Unchanged since its creation (every order as created): the same text, formatted once.
    updated_at:
      order.updatedAt === order.createdAt ? createdAt : new Date(order.updatedAt).toISOString(),
  };
}
