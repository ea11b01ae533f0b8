import type pg from "pg";
import { orderAmountMinor } from "../../lib/minor-units.js";
import type { BatchOutcome } from "../group-commit.js";
import { createdOrder, orderParams } from "../rows.js";
import { queueStatement } from "../sql-webhook-store.js";
import type { CreateOrderOutcome, NewSalesOrder, SalesOrderRecord } from "../store.js";
import type { NonceClaim } from "../tenant-store.js";
import { statement } from "./pool.js";

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
 * dispatched, as on SQLite. The created orders' daily tallies (order_day_totals, migration 026)
 * go in the same statement too: one upsert row per partner, day, status and currency of the
 * batch, in key order (so batches and moves lock tally rows in one order and cannot deadlock).
 * A worker fan-out per batch was a statement more per batch on every instance, and the event's notification woke every instance's worker for it (migration 018).
 *
 * Each signed create's replay-guard nonce goes in the same statement, so it commits with its
 * order or not at all: a request whose instance died before the commit can be sent again (as
 * HAProxy's retry does) and is created then, instead of being refused as a replay of an order
 * that does not exist. A nonce already stored (or a racing instance's, once that commits: ON
 * CONFLICT waits for it) leaves its order out. Nonces are claimed only for orders that passed
 * the purchase_order_no check, so a refused duplicate keeps none; the one exception, a
 * duplicate committed by another instance after the snapshot, comes back as
 * `duplicate_claimed` for the caller to release. Each input row's fate comes back:
 * `created` (with its numbers), `replayed`, `duplicate` or `duplicate_claimed`.
 */
const INSERT_MANY = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::bigint[], $11::text[], $12::text[], $13::bigint[], $14::numeric[])
      WITH ORDINALITY AS t(id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, nonce_key, nonce_expires_at, amount, ord)
  ), fresh AS (
    SELECT i.* FROM input i
    WHERE i.purchase_order_no IS NULL
      OR (NOT EXISTS (SELECT 1 FROM sales_orders s WHERE s.partner_id = i.partner_id AND s.purchase_order_no = i.purchase_order_no)
        AND NOT EXISTS (SELECT 1 FROM input e WHERE e.partner_id = i.partner_id AND e.purchase_order_no = i.purchase_order_no AND e.ord < i.ord))
  ), claimed AS (
    INSERT INTO request_nonces (nonce_key, expires_at)
    SELECT nonce_key, nonce_expires_at FROM fresh WHERE nonce_key IS NOT NULL
    ON CONFLICT (nonce_key) DO NOTHING
    RETURNING nonce_key
  ), admitted AS (
    SELECT f.* FROM fresh f
    WHERE f.nonce_key IS NULL
      OR (f.nonce_key IN (SELECT nonce_key FROM claimed)
        AND NOT EXISTS (SELECT 1 FROM fresh e WHERE e.nonce_key = f.nonce_key AND e.ord < f.ord))
  ), counts AS (
    SELECT partner_id, count(*) AS n FROM admitted GROUP BY partner_id
  ), numbered AS (
    UPDATE partners p SET orders_issued = p.orders_issued + c.n FROM counts c
    WHERE p.id = c.partner_id
    RETURNING p.id, p.orders_issued - c.n AS base
  ), inserted AS (
  INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, partner_seq)
  SELECT f.id, f.partner_id, f.purchase_order_no, f.customer_code, f.site_code, f.sales_name, f.address, f.products, f.status, f.created_at, f.currency,
    n.base + row_number() OVER (PARTITION BY f.partner_id ORDER BY f.ord)
  FROM admitted f JOIN numbered n ON n.id = f.partner_id
  ORDER BY f.ord
  ON CONFLICT (partner_id, purchase_order_no) DO NOTHING
  RETURNING id, seq, partner_seq, partner_id, status, created_at
  ), events AS (
    INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at, dispatched_at)
    SELECT gen_random_uuid()::text, partner_id, id, 'order.created', NULL, status, NULL, created_at, created_at FROM inserted ORDER BY seq
    RETURNING id, partner_id, type, to_status, created_at
  ), tallied AS (
    INSERT INTO order_day_totals (partner_id, day, status, currency, orders, amount)
    SELECT s.partner_id, (s.created_at / 86400000)::integer, s.status, coalesce(i.currency, ''), count(*), sum(i.amount)
    FROM inserted s JOIN input i ON i.id = s.id
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (partner_id, day, status, currency) DO UPDATE
      SET orders = order_day_totals.orders + excluded.orders, amount = order_day_totals.amount + excluded.amount
  ), queued AS (${queueStatement("events", "e.created_at")})
  SELECT i.id, s.seq, s.partner_seq, CASE
      WHEN s.id IS NOT NULL THEN 'created'
      WHEN a.id IS NOT NULL THEN CASE WHEN i.nonce_key IS NULL THEN 'duplicate' ELSE 'duplicate_claimed' END
      WHEN f.id IS NOT NULL THEN 'replayed'
      WHEN i.nonce_key IS NOT NULL AND (EXISTS (SELECT 1 FROM request_nonces r WHERE r.nonce_key = i.nonce_key)
        OR EXISTS (SELECT 1 FROM input e WHERE e.nonce_key = i.nonce_key AND e.ord < i.ord)) THEN 'replayed'
      ELSE 'duplicate'
    END AS fate
  FROM input i LEFT JOIN inserted s ON s.id = i.id LEFT JOIN admitted a ON a.id = i.id LEFT JOIN fresh f ON f.id = i.id`;

/** The order as created, with the numbers its row got. */
export const createdOrderOf = (
  order: NewSalesOrder,
  { seq, partnerSeq }: { seq: number; partnerSeq: number },
): SalesOrderRecord => createdOrder(order, { seq, partnerSeq });

/** One order to insert, with its signed create's replay-guard nonce when it has one. */
export interface OrderJob {
  order: NewSalesOrder;
  nonce?: NonceClaim | undefined;
}

/** What became of one order of a batch (see INSERT_MANY). */
type RowFate =
  | { kind: "created"; seq: number; partnerSeq: number }
  | { kind: "replayed" }
  /** `nonceClaimed`: its nonce was stored although the order was not; the caller releases it. */
  | { kind: "duplicate"; nonceClaimed: boolean };

/** Runs INSERT_MANY for `jobs` on a pool or a client in a transaction; each order's fate by id. */
export async function insertOrderRows(
  db: Pick<pg.Pool, "query"> | pg.PoolClient,
  jobs: OrderJob[],
  /** Named prepared statement (false behind a transaction pooler; see pool.ts). */
  named = true,
): Promise<Map<string, RowFate>> {
  // Column-wise arrays for unnest: the i-th array holds every order's i-th value.
  const rows = jobs.map(({ order, nonce }) => [
    ...orderParams(order),
    nonce?.key ?? null,
    nonce?.expiresAt ?? null,
    orderAmountMinor(order.products, order.currency).toString(),
  ]);
  const { rows: fates } = await db.query<{
    id: string;
    seq: number | null;
    partner_seq: number | null;
    fate: "created" | "replayed" | "duplicate" | "duplicate_claimed";
  }>(
    statement(named, {
      name: "orderline_insert_orders_v6",
      text: INSERT_MANY,
      values: (rows[0] ?? []).map((_, column) => rows.map((row) => row[column])),
    }),
  );
  return new Map(
    fates.map((r): [string, RowFate] => {
      if (r.fate === "created")
        return [r.id, { kind: "created", seq: Number(r.seq), partnerSeq: Number(r.partner_seq) }];
      if (r.fate === "replayed") return [r.id, { kind: "replayed" }];
      return [r.id, { kind: "duplicate", nonceClaimed: r.fate === "duplicate_claimed" }];
    }),
  );
}

/**
 * Deletes the nonces of orders that lost a purchase_order_no race after claiming them: rare (two
 * different requests with one purchase_order_no at the same moment), so a statement of its own.
 */
const RELEASE_NONCES = "DELETE FROM request_nonces WHERE nonce_key = ANY($1::text[])";

export async function insertOrders(
  pool: pg.Pool,
  jobs: OrderJob[],
  duplicateOf: (order: NewSalesOrder) => Promise<CreateOrderOutcome>,
  named = true,
): Promise<BatchOutcome<CreateOrderOutcome>[]> {
  const fates = await insertOrderRows(pool, jobs, named);
  const unclaimed = jobs.flatMap(({ order, nonce }) => {
    const fate = fates.get(order.id);
    return fate?.kind === "duplicate" && fate.nonceClaimed && nonce ? [nonce.key] : [];
  });
  if (unclaimed.length > 0) await pool.query(RELEASE_NONCES, [unclaimed]);
  return Promise.all(
    jobs.map(async ({ order }): Promise<BatchOutcome<CreateOrderOutcome>> => {
      const fate = fates.get(order.id);
      if (fate?.kind === "created")
        return { ok: true, value: { kind: "created", order: createdOrderOf(order, fate) } };
      if (fate?.kind === "replayed") return { ok: true, value: { kind: "request_replayed" } };
      try {
        return { ok: true, value: await duplicateOf(order) };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    }),
  );
}
