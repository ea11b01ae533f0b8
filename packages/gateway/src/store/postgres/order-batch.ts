import type pg from "pg";
import type { BatchOutcome } from "../group-commit.js";
import { createdOrder, orderParams } from "../rows.js";
import { queueStatement } from "../sql-webhook-store.js";
import type { CreateOrderOutcome, NewSalesOrder } from "../store.js";

/**
 * Inserts many orders (without Idempotency-Key) in one statement and one commit: the
 * PostgreSQL side of group commit. Orders whose purchase_order_no the partner already used (or
 * that repeat one earlier in the batch) are left out; the others get their partner's next
 * numbers from partners.orders_issued, whose row lock makes concurrent batches of one partner,
 * from any instance, take turns (UPDATE re-reads the row a concurrent commit changed).
 * ON CONFLICT still catches a duplicate committed by another instance after this statement's
 * snapshot; its number is then skipped, never reused. RETURNING says which rows went in, with
 * their seqs (assigned in batch order) and numbers; each inserted order also gets its
 * `order.created` outbox event in the same statement, hence the same commit, and the event's
 * webhook deliveries are queued there too (usually none: no endpoint subscribes), so it is born
 * dispatched, as on SQLite. A worker fan-out per batch was a statement more per batch on every
 * instance, and the event's notification woke every instance's worker for it (migration 018).
 */
const INSERT_MANY = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::bigint[], $11::text[])
      WITH ORDINALITY AS t(id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, ord)
  ), fresh AS (
    SELECT i.* FROM input i
    WHERE i.purchase_order_no IS NULL
      OR (NOT EXISTS (SELECT 1 FROM sales_orders s WHERE s.partner_id = i.partner_id AND s.purchase_order_no = i.purchase_order_no)
        AND NOT EXISTS (SELECT 1 FROM input e WHERE e.partner_id = i.partner_id AND e.purchase_order_no = i.purchase_order_no AND e.ord < i.ord))
  ), counts AS (
    SELECT partner_id, count(*) AS n FROM fresh GROUP BY partner_id
  ), numbered AS (
    UPDATE partners p SET orders_issued = p.orders_issued + c.n FROM counts c
    WHERE p.id = c.partner_id
    RETURNING p.id, p.orders_issued - c.n AS base
  ), inserted AS (
  INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, partner_seq)
  SELECT f.id, f.partner_id, f.purchase_order_no, f.customer_code, f.site_code, f.sales_name, f.address, f.products, f.status, f.created_at, f.currency,
    n.base + row_number() OVER (PARTITION BY f.partner_id ORDER BY f.ord)
  FROM fresh f JOIN numbered n ON n.id = f.partner_id
  ORDER BY f.ord
  ON CONFLICT (partner_id, purchase_order_no) DO NOTHING
  RETURNING id, seq, partner_seq, partner_id, status, created_at
  ), events AS (
    INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at, dispatched_at)
    SELECT gen_random_uuid()::text, partner_id, id, 'order.created', NULL, status, NULL, created_at, created_at FROM inserted ORDER BY seq
    RETURNING id, partner_id, type, to_status, created_at
  ), queued AS (${queueStatement("events", "e.created_at")})
  SELECT id, seq, partner_seq FROM inserted`;

/** Runs INSERT_MANY for `orders` on a pool or a client in a transaction. */
export async function insertOrderRows(
  db: Pick<pg.Pool, "query"> | pg.PoolClient,
  orders: NewSalesOrder[],
): Promise<Map<string, { seq: number; partnerSeq: number }>> {
  // Column-wise arrays for unnest: the i-th array holds every order's i-th value.
  const rows = orders.map(orderParams);
  const { rows: inserted } = await db.query<{ id: string; seq: number; partner_seq: number }>({
    name: "orderline_insert_orders_v4",
    text: INSERT_MANY,
    values: (rows[0] ?? []).map((_, column) => rows.map((row) => row[column])),
  });
  return new Map(inserted.map((r) => [r.id, { seq: r.seq, partnerSeq: r.partner_seq }]));
}

export async function insertOrders(
  pool: pg.Pool,
  orders: NewSalesOrder[],
  duplicateOf: (order: NewSalesOrder) => Promise<CreateOrderOutcome>,
): Promise<BatchOutcome<CreateOrderOutcome>[]> {
  const numbers = await insertOrderRows(pool, orders);
  return Promise.all(
    orders.map(async (order): Promise<BatchOutcome<CreateOrderOutcome>> => {
      const number = numbers.get(order.id);
      if (number !== undefined)
        return { ok: true, value: { kind: "created", order: createdOrder(order, number) } };
      try {
        return { ok: true, value: await duplicateOf(order) };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    }),
  );
}
