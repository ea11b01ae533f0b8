import { orderAmountMinor } from "../lib/minor-units.js";
import type {
  OrderChangeRecord,
  OrderEventRecord,
  OrderFilter,
  OrderMove,
  OrderMoveOutcome,
  OrderScope,
} from "./records.js";
import { type OrderRow, toOrder } from "./rows.js";
import type { Statement } from "./sql-runner.js";

/**
 * The SQL of order moves, history and list filters, in `?` placeholders both dialects run (the
 * PostgreSQL store numbers them). Each store runs a move in one transaction: read the order
 * with its write lock (`findInScope`), decide (`whyNotMoved`), then the conditional UPDATE and
 * the history row.
 */

export type { Statement };

/** The orders a scope reaches: a partner's own, or those of every partner of a tenant. */
function scoped(scope: OrderScope): Statement {
  return "partnerId" in scope
    ? { sql: "partner_id = ?", params: [scope.partnerId] }
    : {
        sql: "partner_id IN (SELECT id FROM partners WHERE tenant_id = ?)",
        params: [scope.tenantId],
      };
}

/**
 * The conditional UPDATE: applies only while the order is in one of `from` (and at the expected
 * version), so of two racing moves exactly one changes the row; the other changes nothing and
 * learns why from `findInScope`.
 */
export function moveStatement(move: OrderMove): Statement {
  const scope = scoped(move.scope);
  const version = move.expectedVersion === undefined ? "" : " AND version = ?";
  return {
    sql: `UPDATE sales_orders SET status = ?, version = version + 1, updated_at = ?
      WHERE id = ? AND ${scope.sql} AND status IN (${move.from.map(() => "?").join(", ")})${version}
      RETURNING *`,
    params: [
      move.to,
      move.at,
      move.orderId,
      ...scope.params,
      ...move.from,
      ...(move.expectedVersion === undefined ? [] : [move.expectedVersion]),
    ],
  };
}

export function historyStatement(move: OrderMove, from: string): Statement {
  return {
    sql: "INSERT INTO order_history (order_id, from_status, to_status, actor_type, actor_id, actor_name, reason, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    params: [
      move.orderId,
      from,
      move.to,
      move.actor.type,
      move.actor.id,
      move.actor.name,
      move.reason,
      move.at,
    ],
  };
}

/** `lock`: PostgreSQL's `FOR UPDATE`, so a racing move waits for this one and then re-reads. */
export function findInScope(move: OrderMove, lock = ""): Statement {
  const scope = scoped(move.scope);
  return {
    sql: `SELECT * FROM sales_orders WHERE id = ? AND ${scope.sql}${lock ? ` ${lock}` : ""}`,
    params: [move.orderId, ...scope.params],
  };
}

/**
 * Why the move cannot apply to the order as read, or undefined when it can. A stale If-Match
 * comes first: HTTP evaluates preconditions before the method's own rules.
 */
export function whyNotMoved(
  move: OrderMove,
  row: OrderRow | undefined,
): OrderMoveOutcome | undefined {
  if (row === undefined) return { kind: "not_found" };
  const order = toOrder(row);
  if (move.expectedVersion !== undefined && order.version !== move.expectedVersion)
    return { kind: "stale", order };
  if (!move.from.includes(order.status)) return { kind: "illegal", order };
  return undefined;
}

/**
 * The outbox event of a move, written in the move's transaction. `dispatched`: the caller queues
 * its webhook deliveries in the same transaction (SQLite), instead of the worker's fan-out.
 */
export function moveEventStatement(
  move: OrderMove,
  eventId: string,
  partnerId: string,
  from: string,
  dispatched = false,
): Statement {
  return {
    sql: "INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at, dispatched_at) VALUES (?, ?, ?, 'order.status_changed', ?, ?, ?, ?, ?)",
    params: [
      eventId,
      partnerId,
      move.orderId,
      from,
      move.to,
      move.reason,
      move.at,
      dispatched ? move.at : null,
    ],
  };
}

/**
 * The outbox event of a creation (SQLite; PostgreSQL's batch statement writes its own), its
 * webhook deliveries queued in the same transaction (QUEUE_EVENT), so it is born dispatched.
 */
export const CREATED_EVENT =
  "INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at, dispatched_at) VALUES (?, ?, ?, 'order.created', NULL, ?, NULL, ?, ?)";

export const EVENTS_AFTER = "SELECT * FROM order_events WHERE seq > ? ORDER BY seq LIMIT ?";

export interface OrderEventRow {
  seq: number;
  id: string;
  partner_id: string;
  order_id: string;
  type: OrderEventRecord["type"];
  from_status: string | null;
  to_status: string;
  reason: string | null;
  created_at: number;
}

export const toEvent = (r: OrderEventRow): OrderEventRecord => ({
  seq: r.seq,
  id: r.id,
  partnerId: r.partner_id,
  orderId: r.order_id,
  type: r.type,
  from: r.from_status,
  to: r.to_status,
  reason: r.reason,
  createdAt: r.created_at,
});

export const HISTORY_OF = "SELECT * FROM order_history WHERE order_id = ? ORDER BY seq";

export interface OrderHistoryRow {
  order_id: string;
  from_status: string;
  to_status: string;
  actor_type: "partner" | "user";
  actor_id: string;
  actor_name: string;
  reason: string | null;
  at: number;
}

export const toChange = (r: OrderHistoryRow): OrderChangeRecord => ({
  orderId: r.order_id,
  from: r.from_status,
  to: r.to_status,
  actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
  reason: r.reason,
  at: r.at,
});

/** The filter as SQL conditions on the order table aliased `o` (or unaliased: `o = ""`). */
function filterConditions(filter: OrderFilter = {}, o = ""): Statement {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    conditions.push(`${o}${condition}`);
    params.push(value);
  };
  if (filter.status !== undefined) add("status = ?", filter.status);
  if (filter.createdFrom !== undefined) add("created_at >= ?", filter.createdFrom);
  if (filter.createdTo !== undefined) add("created_at < ?", filter.createdTo);
  if (filter.purchaseOrderNo !== undefined) add("purchase_order_no = ?", filter.purchaseOrderNo);
  return { sql: conditions.map((c) => ` AND ${c}`).join(""), params };
}

/**
 * The listing order, newest first: creation time, then seq among orders created in the same
 * millisecond. Every listing index ends in (created_at, seq), so a window, a status and a
 * cursor are one index range read in this order, and a page reads at most `limit + 1` entries.
 */
const NEWEST_FIRST = "ORDER BY created_at DESC, seq DESC";
/** The same index read backwards (the tenant listing's "oldest first"). */
const OLDEST_FIRST = "ORDER BY created_at, seq";

/** The paging of a listing: page size, cursor (the last seq shown), direction. */
export interface ListWindow {
  limit: number;
  beforeSeq?: number;
  filter?: OrderFilter;
  /** Oldest first; the cursor then continues above the last order shown. */
  oldestFirst?: boolean;
}

/**
 * `sqlite`: names the status index (INDEXED BY). Without statistics SQLite's planner prefers the
 * time index for a status within a two-sided window, which reads the whole window; PostgreSQL's
 * planner chooses from its statistics.
 */
export interface ListDialect {
  sqlite?: boolean;
}

/**
 * A partner's orders newest first, filtered, `limit + 1` rows (see pageOf). A cursor (the seq of
 * the last order of the previous page) continues below that order's (created_at, seq).
 */
export function partnerOrdersStatement(
  partnerId: string,
  options: ListWindow,
  dialect: ListDialect = {},
): Statement {
  const range = partnerRange(partnerId, options, dialect);
  return {
    sql: `SELECT * FROM sales_orders${range.sql} LIMIT ?`,
    params: [...range.params, options.limit + 1],
  };
}

/**
 * `FROM`-less body of a partner's listing: its index hint, conditions and order, without the
 * LIMIT (order-search.ts bounds the same range with its own).
 */
export function partnerRange(
  partnerId: string,
  options: ListWindow,
  dialect: ListDialect = {},
): Statement {
  const filter = filterConditions(options.filter);
  const hint =
    dialect.sqlite &&
    options.filter?.status !== undefined &&
    options.filter.purchaseOrderNo === undefined
      ? " INDEXED BY sales_orders_by_partner_status_time"
      : "";
  const cursor =
    options.beforeSeq === undefined
      ? ""
      : ` AND (created_at, seq) ${options.oldestFirst ? ">" : "<"} ((SELECT c.created_at FROM sales_orders c WHERE c.seq = ?), ?)`;
  return {
    sql: `${hint} WHERE partner_id = ?${cursor}${filter.sql} ${options.oldestFirst ? OLDEST_FIRST : NEWEST_FIRST}`,
    params: [
      partnerId,
      ...(options.beforeSeq === undefined ? [] : [options.beforeSeq, options.beforeSeq]),
      ...filter.params,
    ],
  };
}

/** Oldest first as OLDEST_FIRST orders rows. */
export const oldestFirst = (
  a: { created_at: number; seq: number },
  b: { created_at: number; seq: number },
): number => a.created_at - b.created_at || a.seq - b.seq;

/** Newest first as NEWEST_FIRST orders rows: for merging several partners' pages. */
export const newestFirst = (
  a: { created_at: number; seq: number },
  b: { created_at: number; seq: number },
): number => b.created_at - a.created_at || b.seq - a.seq;

/** The UTC day number an order's tallies count it under (order_day_totals.day). */
export const tallyDay = (createdAt: number): number => Math.floor(createdAt / 86_400_000);

/** A tally's amount as the driver binds it: a BigInt while it fits SQLite's 64-bit integer. */
const boundAmount = (minor: bigint): bigint | string =>
  minor <= 9_223_372_036_854_775_807n && minor >= -9_223_372_036_854_775_808n
    ? minor
    : minor.toString();

const TALLY_UPSERT = `INSERT INTO order_day_totals (partner_id, day, status, currency, orders, amount) VALUES %ROWS%
  ON CONFLICT (partner_id, day, status, currency) DO UPDATE SET orders = order_day_totals.orders + excluded.orders, amount = order_day_totals.amount + excluded.amount`;

/** A tally row's key and what is added to it: `orders` orders worth `amount` minor units. */
export interface TallyAddition {
  partnerId: string;
  day: number;
  status: string;
  currency: string;
  orders: number;
  amount: bigint;
}

/** What a created order adds to its tally row (order_day_totals, migration 026). */
export const createdTally = (order: {
  partnerId: string;
  createdAt: number;
  status: string;
  currency?: string | null | undefined;
  products: readonly { quantity: number; unit_price?: number | null }[];
}): TallyAddition => ({
  partnerId: order.partnerId,
  day: tallyDay(order.createdAt),
  status: order.status,
  currency: order.currency ?? "",
  orders: 1,
  amount: orderAmountMinor(order.products, order.currency),
});

/** One tally row's addition (ADD_TALLY_PARAMS), in the transaction of the orders it counts. */
export const ADD_TALLY = TALLY_UPSERT.replace("%ROWS%", "(?, ?, ?, ?, ?, ?)");

export const addTallyParams = (t: TallyAddition): unknown[] => [
  t.partnerId,
  t.day,
  t.status,
  t.currency,
  t.orders,
  boundAmount(t.amount),
];

/**
 * A move's tallies: the order leaves its old status's row and joins the new one's, in one
 * two-row upsert in the move's transaction. The rows go in key order (status text), so two
 * transactions on PostgreSQL lock a partner's tally rows in the same order and cannot deadlock
 * on them.
 */
export function movedTallyStatement(row: OrderRow, to: string): Statement {
  const order = toOrder(row);
  const amount = orderAmountMinor(order.products, order.currency);
  const day = tallyDay(order.createdAt);
  const currency = order.currency ?? "";
  const rows: [string, number, bigint][] = [
    [order.status, -1, -amount],
    [to, 1, amount],
  ];
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    sql: TALLY_UPSERT.replace("%ROWS%", "(?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)"),
    params: rows.flatMap(([status, orders, minor]) => [
      order.partnerId,
      day,
      status,
      currency,
      orders,
      boundAmount(minor),
    ]),
  };
}
