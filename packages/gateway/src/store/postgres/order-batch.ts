import type pg from "pg";
import type { BatchOutcome } from "../group-commit.js";
import { orderParams } from "../rows.js";
import type { CreateOrderOutcome, NewSalesOrder } from "../store.js";

/**
 * Inserts many orders (without Idempotency-Key) in one statement and one commit: the
 * PostgreSQL side of group commit. ON CONFLICT DO NOTHING skips an order whose
 * purchase_order_no the partner already used (also earlier in the same batch); RETURNING says
 * which rows went in, and their seqs, assigned in batch order.
 */
const INSERT_MANY = `INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::bigint[], $11::text[])
  ON CONFLICT (partner_id, purchase_order_no) DO NOTHING
  RETURNING id, seq`;

export async function insertOrders(
  pool: pg.Pool,
  orders: NewSalesOrder[],
  duplicateOf: (order: NewSalesOrder) => Promise<CreateOrderOutcome>,
): Promise<BatchOutcome<CreateOrderOutcome>[]> {
  // Column-wise arrays for unnest: the i-th array holds every order's i-th value.
  const rows = orders.map(orderParams);
  const { rows: inserted } = await pool.query<{ id: string; seq: number }>({
    name: "orderline_insert_orders",
    text: INSERT_MANY,
    values: (rows[0] ?? []).map((_, column) => rows.map((row) => row[column])),
  });
  const seqs = new Map(inserted.map((r) => [r.id, r.seq]));
  return Promise.all(
    orders.map(async (order): Promise<BatchOutcome<CreateOrderOutcome>> => {
      const seq = seqs.get(order.id);
      if (seq !== undefined)
        return { ok: true, value: { kind: "created", order: { ...order, seq } } };
      try {
        return { ok: true, value: await duplicateOf(order) };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    }),
  );
}
