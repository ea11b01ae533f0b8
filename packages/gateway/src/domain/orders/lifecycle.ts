/**
 * The sales order lifecycle as data (docs/gateway/order-lifecycle.md is the same table for
 * people): which action moves an order from which statuses to which, who may take it, and
 * whether it needs a reason. Everything else (routes, stores, docs) reads it from here.
 */

export const ORDER_STATUSES = [
  "received",
  "accepted",
  "rejected",
  "fulfilled",
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderAction = "accept" | "reject" | "fulfil" | "cancel";

/** Who may take an action: the partner that sent the order, or the tenant's users. */
export type Mover = "partner" | "tenant";

export interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
  reasonRequired: boolean;
}

export const TRANSITIONS: Record<OrderAction, Transition> = {
  accept: { from: ["received"], to: "accepted", reasonRequired: false },
  reject: { from: ["received"], to: "rejected", reasonRequired: true },
  fulfil: { from: ["accepted"], to: "fulfilled", reasonRequired: false },
  cancel: { from: ["received", "accepted"], to: "cancelled", reasonRequired: true },
};

/** What a partner may do differs from the tenant: it can only withdraw an order not yet accepted. */
export function transitionFor(action: OrderAction, mover: Mover): Transition {
  const transition = TRANSITIONS[action];
  return mover === "partner" && action === "cancel"
    ? { ...transition, from: ["received"] }
    : transition;
}

/** The statuses an order can move to next, from `status`, for `mover`. */
export function nextStatuses(status: string, mover: Mover): OrderStatus[] {
  const actions: OrderAction[] =
    mover === "partner" ? ["cancel"] : ["accept", "reject", "fulfil", "cancel"];
  return actions
    .map((action) => transitionFor(action, mover))
    .filter((t) => (t.from as readonly string[]).includes(status))
    .map((t) => t.to);
}
