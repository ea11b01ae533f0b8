/** A delivery as the webhook contract describes it, and secrets shaped like the gateway's. */
import { randomBytes } from "node:crypto";

export function webhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export const ACCEPTED_EVENT = {
  id: "evt_01JDQ3Z7V9W4K2M8N6P5R3T1XY",
  type: "order.accepted",
  created_at: "2026-11-22T18:00:00.000Z",
  data: {
    order: {
      id: "0193a4b2-7c1d-7e4f-9a2b-3c4d5e6f7a8b",
      order_number: "SO-00000042",
      status: "accepted",
      client_id: "olc_demo",
      purchase_order_no: "PO-2026-1142",
      currency: "EUR",
      customer_code: "CUST-001",
      site_code: "SITE-01",
      sales_name: "Dana Sales",
      address: "1 Harbour Road, Springfield",
      products: [
        {
          line_no: 1,
          product_code: "SKU-1001",
          quantity: 2,
          uom: "EA",
          unit_price: 9.5,
          notes: "Größe M — ½ Palette",
        },
      ],
      created_at: "2026-11-22T17:58:12.000Z",
      version: 2,
      updated_at: "2026-11-22T18:00:00.000Z",
    },
    change: { from: "received", to: "accepted", reason: null, by: "tenant_user" },
  },
};

/** The body bytes as a sender writes them (non-ASCII included, to catch encoding slips). */
export const ACCEPTED_BODY = JSON.stringify(ACCEPTED_EVENT);
