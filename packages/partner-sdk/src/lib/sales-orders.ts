import { randomUUID } from "node:crypto";
import { PartnerApiError } from "../errors.js";
import type {
  OrderStatus,
  SalesOrder,
  SalesOrderDetail,
  SalesOrderInput,
  SalesOrderPage,
} from "../types.js";
import { isOwnCancellation } from "./own-cancellation.js";
import type { SignedCall } from "./signed-call.js";

export interface CreateOptions {
  /** Reused on every retry of this create; a fresh UUID when omitted. */
  idempotencyKey?: string;
}

/** Filters of the order listing, combined with AND. */
export interface OrderFilters {
  status?: OrderStatus;
  /** Created at or after this instant (a Date, or RFC 3339 text with `Z` or an offset). */
  createdFrom?: Date | string;
  /** Created before this instant (exclusive). */
  createdTo?: Date | string;
  /** The order with this purchase_order_no: at most one, they are unique per partner. */
  purchaseOrderNo?: string;
}

export interface ListOptions extends OrderFilters {
  /** 1–100 (the gateway's default is 20). */
  limit?: number;
  /** `next_cursor` of the previous page, sent with the same filters. */
  cursor?: string;
}

export interface IterateOptions extends OrderFilters {
  /** Orders per request, 1–100 (the gateway's default is 20). */
  pageSize?: number;
}

export interface CancelOptions {
  /** Why (1–500 characters): kept in the order's history, shown to the tenant. */
  reason: string;
}

/** What `client.salesOrders` offers. */
export interface SalesOrderCalls {
  create(order: SalesOrderInput, options?: CreateOptions): Promise<SalesOrder>;
  get(id: string): Promise<SalesOrderDetail>;
  list(options?: ListOptions): Promise<SalesOrderPage>;
  /** Every order of the partner (that the filters let through), newest first, page after page. */
  iterate(options?: IterateOptions): AsyncIterableIterator<SalesOrder>;
  /**
   * Withdraws an order the tenant has not accepted yet (status `received`); resolves to the
   * cancelled order. Later, 409 `order_transition_invalid` with `current_status`. Retried on
   * 429, 503 and network errors like every call: when an earlier attempt did cancel the order
   * but its answer was lost, the cancelled order is returned, not the retry's 409.
   */
  cancel(id: string, options: CancelOptions): Promise<SalesOrderDetail>;
}

function instant(name: string, value: Date | string | undefined): string | undefined {
  if (!(value instanceof Date)) return value;
  if (Number.isNaN(value.getTime())) throw new TypeError(`${name} is an invalid Date`);
  return value.toISOString();
}

function listQuery(options: ListOptions): string {
  return queryOf({
    limit: options.limit,
    cursor: options.cursor,
    status: options.status,
    created_from: instant("createdFrom", options.createdFrom),
    created_to: instant("createdTo", options.createdTo),
    purchase_order_no: options.purchaseOrderNo,
  });
}

function orderPath(id: string): string {
  if (typeof id !== "string" || id === "") throw new TypeError("id must be a non-empty string");
  return `/api/v1/sales-orders/${encodeURIComponent(id)}`;
}

function queryOf(params: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
  if (pairs.length === 0) return "";
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join("&")}`;
}

/** A refusal a retried cancel can get from its own earlier, lost success. */
function mayBeOwnEarlierCancel(error: unknown): boolean {
  // Only a retried request can meet its own earlier success; a first answer of 409 is the truth.
  return (
    error instanceof PartnerApiError &&
    error.attempts > 1 &&
    error.code === "order_transition_invalid" &&
    error.problem.current_status === "cancelled"
  );
}

/** The `salesOrders` calls of a client, each made through `signed`. */
export function salesOrdersOf(signed: SignedCall): SalesOrderCalls {
  const salesOrders: SalesOrderCalls = {
    async create(order, createOptions = {}) {
      const key = createOptions.idempotencyKey ?? randomUUID();
      const response = await signed("POST", "/api/v1/sales-orders", JSON.stringify(order), {
        "idempotency-key": key,
      });
      return (response.body as { data: SalesOrder }).data;
    },
    async get(id) {
      const response = await signed("GET", orderPath(id));
      return (response.body as { data: SalesOrderDetail }).data;
    },
    async list(listOptions = {}) {
      return (await signed("GET", `/api/v1/sales-orders${listQuery(listOptions)}`))
        .body as SalesOrderPage;
    },
    async *iterate(iterateOptions = {}) {
      const { pageSize, ...filters } = iterateOptions;
      let cursor: string | undefined;
      do {
        const page = await salesOrders.list({
          ...filters,
          ...(pageSize === undefined ? {} : { limit: pageSize }),
          ...(cursor === undefined ? {} : { cursor }),
        });
        yield* page.data;
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },
    async cancel(id, cancelOptions) {
      const path = `${orderPath(id)}/cancel`;
      const reason = cancelOptions?.reason;
      if (typeof reason !== "string" || reason.trim() === "") {
        throw new TypeError("cancel needs a reason: a non-empty string");
      }
      try {
        const response = await signed("POST", path, JSON.stringify({ reason }));
        return (response.body as { data: SalesOrderDetail }).data;
      } catch (error) {
        if (mayBeOwnEarlierCancel(error)) {
          const order = await salesOrders.get(id);
          if (isOwnCancellation(order, reason)) return order;
        }
        throw error;
      }
    },
  };
  return salesOrders;
}
