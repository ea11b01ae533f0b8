import { type ListDialect, type ListWindow, partnerRange, type Statement } from "./order-moves.js";

/**
 * Free-text search and counts of the tenant listing, in SQL both dialects run. Neither store has
 * an index that answers "contains" over several columns and a JSON array, so a search reads one
 * bounded index range per partner (the listing's own, newest first) and filters it: at most
 * SEARCH_WINDOW orders per partner and page, whatever the store's size (docs/decisions.md).
 */

/** How many orders of one partner a search page looks through, from the cursor on. */
export const SEARCH_WINDOW = 5_000;
/**
 * Counts stop here: a listing says "1,000+" rather than counting a million rows. Past a
 * thousand a desk narrows its filters; counting further cost most of a listing's time on
 * PostgreSQL, where recently written index entries still need heap visits.
 */
export const COUNT_CAP = 1_000;

/** `q` as a LIKE pattern: lower-cased, its own % _ \ taken literally. */
export const containsPattern = (q: string): string =>
  `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether the text contains `q`, as the SQL match compares (lower-cased). */
export const textContains = (text: string, q: string): boolean =>
  text.toLowerCase().includes(q.toLowerCase());

/**
 * An order number as staff type it: `SO-00000123`, `so123` (`prefixed`: only the number is
 * meant) or the bare `123` (also text: a PO number or code may contain it). Numbers count per
 * partner, so one number names up to one order per partner.
 */
export function orderNumberQuery(q: string): { number: number; prefixed: boolean } | undefined {
  const match = /^(so-?)?0*(\d{1,15})$/i.exec(q.trim());
  if (!match) return undefined;
  const number = Number(match[2]);
  return number > 0 && Number.isSafeInteger(number)
    ? { number, prefixed: match[1] !== undefined }
    : undefined;
}

/**
 * PO number, customer code, site or a line's product code contains the pattern, or (`number`)
 * the order has that number (`w`: the window). An order numbered before per-partner numbers
 * (006) has its store-wide seq as its number.
 */
function matchCondition(dialect: ListDialect, number: boolean): string {
  const like = "LIKE ? ESCAPE '\\'";
  const product = dialect.sqlite
    ? `EXISTS (SELECT 1 FROM json_each(w.products) j WHERE lower(json_extract(j.value, '$.product_code')) ${like})`
    : `EXISTS (SELECT 1 FROM jsonb_array_elements(w.products) AS j(line) WHERE lower(j.line->>'product_code') ${like})`;
  const numbered = number ? " OR w.partner_seq = ? OR (w.partner_seq IS NULL AND w.seq = ?)" : "";
  return `(lower(w.purchase_order_no) ${like} OR lower(w.customer_code) ${like} OR lower(w.site_code) ${like} OR ${product}${numbered})`;
}

/** The match condition's parameters for `q`. */
const matchParams = (q: string): unknown[] => {
  const number = orderNumberQuery(q)?.number;
  return [...Array(4).fill(containsPattern(q)), ...(number === undefined ? [] : [number, number])];
};

/**
 * A partner's order with this number, if it passes the listing's filters and cursor: two index
 * probes (023's (partner_id, partner_seq), the primary key for older orders), whatever the
 * partner's size; the listing order and `limit + 1` as every partner page.
 */
export function numberStatement(partnerId: string, number: number, options: ListWindow): Statement {
  const range = partnerRange(partnerId, options);
  return {
    // MATERIALIZED: otherwise SQLite pushes the listing's range and order into the union and
    // reads the partner's whole time index instead of probing its number (list-plans.test.ts).
    sql: `WITH n AS MATERIALIZED (SELECT * FROM sales_orders WHERE partner_id = ? AND partner_seq = ? UNION ALL SELECT * FROM sales_orders WHERE seq = ? AND partner_id = ? AND partner_seq IS NULL) SELECT * FROM n${range.sql} LIMIT ?`,
    params: [partnerId, number, number, partnerId, ...range.params, options.limit + 1],
  };
}

const window = (partnerId: string, options: ListWindow, dialect: ListDialect): Statement => {
  const range = partnerRange(partnerId, options, dialect);
  return {
    sql: `(SELECT * FROM sales_orders${range.sql} LIMIT ?) w`,
    params: [...range.params, SEARCH_WINDOW],
  };
};

/** A partner's orders in the window that match `q`, in listing order, `limit + 1` at most. */
export function searchStatement(
  partnerId: string,
  q: string,
  options: ListWindow,
  dialect: ListDialect = {},
): Statement {
  const from = window(partnerId, options, dialect);
  const order = options.oldestFirst ? "w.created_at, w.seq" : "w.created_at DESC, w.seq DESC";
  return {
    sql: `SELECT w.* FROM ${from.sql} WHERE ${matchCondition(dialect, orderNumberQuery(q) !== undefined)} ORDER BY ${order} LIMIT ?`,
    params: [...from.params, ...matchParams(q), options.limit + 1],
  };
}

/**
 * The last order a full search window reached (none when the partner has fewer): the next page
 * continues after it, since what lies beyond it has not been looked at.
 */
export function windowFloorStatement(
  partnerId: string,
  options: ListWindow,
  dialect: ListDialect = {},
): Statement {
  const range = partnerRange(partnerId, options, dialect);
  return {
    sql: `SELECT seq, created_at FROM sales_orders${range.sql} LIMIT 1 OFFSET ?`,
    params: [...range.params, SEARCH_WINDOW - 1],
  };
}

/**
 * How many of a partner's orders the listing (without cursor) shows, counting at most `cap`
 * index entries (COUNT_CAP + 1 unless the tenant's other partners used part of it); with `q`,
 * the matches within the first search window.
 */
export function countStatement(
  partnerId: string,
  q: string | undefined,
  options: ListWindow,
  dialect: ListDialect = {},
  cap = COUNT_CAP + 1,
): Statement {
  if (q !== undefined) {
    const from = window(partnerId, options, dialect);
    return {
      sql: `SELECT count(*) AS n FROM ${from.sql} WHERE ${matchCondition(dialect, orderNumberQuery(q) !== undefined)}`,
      params: [...from.params, ...matchParams(q)],
    };
  }
  const range = partnerRange(partnerId, options, dialect);
  return {
    sql: `SELECT count(*) AS n FROM (SELECT seq FROM sales_orders${range.sql} LIMIT ?) c`,
    params: [...range.params, cap],
  };
}
