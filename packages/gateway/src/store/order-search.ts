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
 * PostgreSQL, where recently written index entries still need heap visits (issue 30).
 */
export const COUNT_CAP = 1_000;

/** `q` as a LIKE pattern: lower-cased, its own % _ \ taken literally. */
export const containsPattern = (q: string): string =>
  `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether the text contains `q`, as the SQL match compares (lower-cased). */
export const textContains = (text: string, q: string): boolean =>
  text.toLowerCase().includes(q.toLowerCase());

/** PO number, customer code, site or a line's product code contains the pattern (`w`: the window). */
function matchCondition(dialect: ListDialect): string {
  const like = "LIKE ? ESCAPE '\\'";
  const product = dialect.sqlite
    ? `EXISTS (SELECT 1 FROM json_each(w.products) j WHERE lower(json_extract(j.value, '$.product_code')) ${like})`
    : `EXISTS (SELECT 1 FROM jsonb_array_elements(w.products) AS j(line) WHERE lower(j.line->>'product_code') ${like})`;
  return `(lower(w.purchase_order_no) ${like} OR lower(w.customer_code) ${like} OR lower(w.site_code) ${like} OR ${product})`;
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
    sql: `SELECT w.* FROM ${from.sql} WHERE ${matchCondition(dialect)} ORDER BY ${order} LIMIT ?`,
    params: [...from.params, ...Array(4).fill(containsPattern(q)), options.limit + 1],
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
      sql: `SELECT count(*) AS n FROM ${from.sql} WHERE ${matchCondition(dialect)}`,
      params: [...from.params, ...Array(4).fill(containsPattern(q))],
    };
  }
  const range = partnerRange(partnerId, options, dialect);
  return {
    sql: `SELECT count(*) AS n FROM (SELECT seq FROM sales_orders${range.sql} LIMIT ?) c`,
    params: [...range.params, cap],
  };
}
