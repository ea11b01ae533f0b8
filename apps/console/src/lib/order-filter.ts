import { ORDER_STATUSES } from "./lifecycle.js";

/**
 * The orders list's filters as they travel in the console's URL (`#/orders?status=accepted&
 * from=2026-11-01&to=2026-11-22&po=PO-7`): short, readable, and dates as the user picked them.
 */
export interface OrderFilters {
  status?: string;
  /** First day, inclusive, `YYYY-MM-DD` in the browser's time zone. */
  from?: string;
  /** Last day, inclusive, `YYYY-MM-DD` in the browser's time zone. */
  to?: string;
  po?: string;
  /** Free text: part of a PO number, customer, site, product code or partner. */
  q?: string;
  /** A partner's client_id. */
  partner?: string;
  /** "oldest": oldest first; newest first otherwise. */
  sort?: string;
  /** Page size, one of PAGE_SIZES; 20 otherwise. */
  size?: string;
}

export const PAGE_SIZES = ["20", "50", "100"] as const;
const DEFAULT_PAGE_SIZE = 20;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const isDay = (value: string): boolean => {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
};

/**
 * The filters in a URL query. A hand-edited value the API would refuse (an unknown status, a
 * day that does not exist) is left out rather than breaking the page.
 */
export const filtersOf = (query: URLSearchParams): OrderFilters => {
  const status = query.get("status") ?? "";
  const from = query.get("from") ?? "";
  const to = query.get("to") ?? "";
  const po = (query.get("po") ?? "").trim().slice(0, 64);
  const q = (query.get("q") ?? "").trim().slice(0, 100);
  const partner = (query.get("partner") ?? "").trim().slice(0, 64);
  const size = query.get("size") ?? "";
  return {
    ...((ORDER_STATUSES as readonly string[]).includes(status) ? { status } : {}),
    ...(isDay(from) ? { from } : {}),
    ...(isDay(to) ? { to } : {}),
    ...(po ? { po } : {}),
    ...(q ? { q } : {}),
    ...(partner ? { partner } : {}),
    ...(query.get("sort") === "oldest" ? { sort: "oldest" } : {}),
    ...((PAGE_SIZES as readonly string[]).includes(size) && size !== "20" ? { size } : {}),
  };
};

/** The URL query of some filters (empty ones left out), in a fixed order. */
export const filtersQuery = (filters: OrderFilters): URLSearchParams => {
  const query = new URLSearchParams();
  for (const name of ["q", "status", "partner", "from", "to", "po", "sort", "size"] as const) {
    const value = filters[name];
    if (value) query.set(name, value);
  }
  return query;
};

/** Local midnight of a day, `days` later, as the RFC 3339 instant the API compares. */
const midnight = (day: string, days = 0): string => {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date + days).toISOString();
};

/**
 * The filters as the API names them (the listing, the bulk moves' `filter` and the CSV export):
 * the last day is inclusive for people, the API's `created_to` is exclusive, so "to" becomes the
 * midnight that ends that day.
 */
export const apiFilter = (filters: OrderFilters): Record<string, string> => ({
  ...(filters.status ? { status: filters.status } : {}),
  ...(filters.from ? { created_from: midnight(filters.from) } : {}),
  ...(filters.to ? { created_to: midnight(filters.to, 1) } : {}),
  ...(filters.po ? { purchase_order_no: filters.po } : {}),
  ...(filters.q ? { q: filters.q } : {}),
  ...(filters.partner ? { partner: filters.partner } : {}),
});

/** The page size the filters ask for. */
export const pageSizeOf = (filters: OrderFilters): number =>
  Number(filters.size ?? DEFAULT_PAGE_SIZE);

/** The `GET /v1/orders` query (and, without limit and cursor, the CSV export's). */
export const listQuery = (filters: OrderFilters, limit?: number, cursor?: string): string => {
  const query = new URLSearchParams(limit === undefined ? {} : { limit: String(limit) });
  if (cursor) query.set("cursor", cursor);
  for (const [name, value] of Object.entries(apiFilter(filters))) query.set(name, value);
  if (filters.sort === "oldest") query.set("sort", "created_at");
  return query.toString();
};

/** The day range is backwards: nothing could match. */
export const rangeReversed = (filters: OrderFilters): boolean =>
  Boolean(filters.from && filters.to && filters.from > filters.to);

/**
 * A search that is an order number as partners quote it (`SO-00000123`, `so123`, `123`): the
 * gateway lists the orders with that number (one per partner at most).
 */
export const isOrderNumber = (q: string): boolean => /^(so-?)?0*[1-9]\d{0,14}$/i.test(q.trim());

/** The number in an order number or a search for one: `SO-00000123`, `so123` and `123` → 123. */
export const numberOf = (text: string): number => Number(text.trim().replace(/^so-?/i, ""));
