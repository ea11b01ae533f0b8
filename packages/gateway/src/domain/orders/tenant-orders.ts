import { lineTotal, sumOf } from "../../lib/money.js";
import type { TenantListOptions, TenantOrderRecord } from "../../store/tenant-store.js";
import { filterOf, type ListQuery } from "./list-filter.js";
import { type OrderData, toOrderData } from "./representation.js";

/** The tenant listing's filters, as the schema let them through (TENANT_FILTER_PROPERTIES). */
export interface TenantFilterQuery extends Omit<ListQuery, "limit" | "cursor"> {
  q?: string;
  partner?: string;
  sort?: "-created_at" | "created_at";
}

export type TenantListQuery = TenantFilterQuery & { limit: number; cursor?: string };

/** The store's listing options of a filter query (no page: the caller adds limit and cursor). */
export function tenantOptionsOf(query: TenantFilterQuery): Omit<TenantListOptions, "limit"> {
  const q = query.q?.trim();
  return {
    filter: filterOf({ limit: 0, ...query }),
    ...(q ? { q } : {}),
    ...(query.partner === undefined ? {} : { clientId: query.partner }),
    ...(query.sort === "created_at" ? { oldestFirst: true } : {}),
  };
}

export type TenantOrderData = Omit<OrderData, "products"> & {
  partner_name: string;
  products: (OrderData["products"][number] & { line_total: string | null })[];
  total: string | null;
};

/** The order with its partner's name and exact line and order totals (TENANT_ORDER). */
export function toTenantOrderData(order: TenantOrderRecord): TenantOrderData {
  const data = toOrderData(order, order.clientId);
  const products = data.products.map((line) => ({
    ...line,
    line_total: line.unit_price === null ? null : lineTotal(line.quantity, line.unit_price),
  }));
  const totals = products.map((line) => line.line_total);
  return {
    ...data,
    partner_name: order.partnerName,
    products,
    total: totals.every((t): t is string => t !== null) ? sumOf(totals) : null,
  };
}
