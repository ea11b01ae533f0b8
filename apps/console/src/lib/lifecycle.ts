/**
 * The order lifecycle as the console offers it. The table of transitions is the gateway's own
 * (one source: the buttons can never offer what the API refuses); this file adds who may press
 * which button.
 */
import {
  ORDER_STATUSES,
  type OrderAction,
  TRANSITIONS,
  transitionFor,
} from "@orderline/gateway/contract";

export { ORDER_STATUSES, type OrderAction, TRANSITIONS };

/** In the order the page shows them: the way forward first, then the ways out. */
const ACTIONS: readonly OrderAction[] = ["accept", "fulfil", "reject", "cancel"];

/** As in docs/gateway/order-lifecycle.md: members may not undo a commitment (cancel). */
const ADMIN_ONLY: ReadonlySet<OrderAction> = new Set(["cancel"]);

interface OfferedAction {
  action: OrderAction;
  /** false: the status allows it but the user's role does not. */
  permitted: boolean;
  reasonRequired: boolean;
}

/** The actions a tenant user could take on an order in `status`, in display order. */
export const actionsFrom = (status: string, role: "admin" | "member"): OfferedAction[] =>
  ACTIONS.filter((action) =>
    (transitionFor(action, "tenant").from as readonly string[]).includes(status),
  ).map((action) => ({
    action,
    permitted: role === "admin" || !ADMIN_ONLY.has(action),
    reasonRequired: TRANSITIONS[action].reasonRequired,
  }));
