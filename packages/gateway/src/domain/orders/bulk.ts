import { ApiError } from "../../problems/api-error.js";
import { type Problem, problemOf } from "../../problems/catalogue.js";
import type { UserContext } from "../users/user-context.js";
import { type OrderAction, TRANSITIONS } from "./lifecycle.js";
import type { OrderService } from "./service.js";
import type { TenantFilterQuery, TenantOrderData } from "./tenant-orders.js";

/** One request moves at most this many orders: a bounded transaction count per request. */
export const BULK_MAX = 200;

interface BulkResult {
  id: string;
  /** The HTTP status the single move would have answered (200, 404, 409 …). */
  status: number;
  /** `unchanged`: already where the move leads (a retried bulk request reports success). */
  outcome: "moved" | "unchanged" | "failed";
  order?: TenantOrderData;
  problem?: Problem;
}

export interface BulkOutcome {
  action: OrderAction;
  results: BulkResult[];
  summary: { requested: number; moved: number; unchanged: number; failed: number };
  /** "All matching" took the first BULK_MAX: more orders match; send it again for them. */
  more_matching: boolean;
}

const withoutHistory = ({ history: _history, ...order }: TenantOrderData): TenantOrderData => order;

/**
 * Moves one order as the single move would (same transaction, history, event and checks) and
 * says how it went; a refusal is this order's result, never the whole request's.
 */
async function moveOne(
  orders: OrderService,
  context: UserContext,
  id: string,
  action: OrderAction,
  reason: string | null,
): Promise<BulkResult> {
  try {
    const order = await orders.moveForTenant(context, id, action, reason, undefined);
    return { id, status: 200, outcome: "moved", order: withoutHistory(order) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (
      error.code === "order_transition_invalid" &&
      error.extensions.current_status === TRANSITIONS[action].to
    ) {
      const order = await orders.getForTenant(context.tenant.id, id);
      return { id, status: 200, outcome: "unchanged", order: withoutHistory(order) };
    }
    return {
      id,
      status: error.status,
      outcome: "failed",
      problem: problemOf(error.code, error.message, error.extensions),
    };
  }
}

/** The ids of the orders matching a filter, at most BULK_MAX, and whether more match. */
export async function matchingIds(
  orders: OrderService,
  tenantId: string,
  filter: TenantFilterQuery,
): Promise<{ ids: string[]; more: boolean }> {
  const ids: string[] = [];
  for await (const page of orders.matchingForTenant(tenantId, filter, BULK_MAX + 1))
    ids.push(...page.map((o) => o.id));
  return { ids: ids.slice(0, BULK_MAX), more: ids.length > BULK_MAX };
}

/** Moves each order in turn (one transaction each), so one refusal hides no other's success. */
export async function moveEach(
  orders: OrderService,
  context: UserContext,
  ids: readonly string[],
  action: OrderAction,
  reason: string | null,
  more = false,
): Promise<BulkOutcome> {
  const results: BulkResult[] = [];
  for (const id of ids) results.push(await moveOne(orders, context, id, action, reason));
  const count = (outcome: BulkResult["outcome"]) =>
    results.filter((r) => r.outcome === outcome).length;
  return {
    action,
    results,
    summary: {
      requested: ids.length,
      moved: count("moved"),
      unchanged: count("unchanged"),
      failed: count("failed"),
    },
    more_matching: more,
  };
}
