import type { SalesOrderDetail } from "../types.js";

/**
 * Whether the order's last change is a partner's cancellation with `reason`: after a retried
 * cancel answers 409 `cancelled`, this tells "our first attempt went through, its answer was
 * lost" from "someone else cancelled it first".
 */
export function isOwnCancellation(order: SalesOrderDetail, reason: string): boolean {
  const last = order.history.at(-1);
  return (
    order.status === "cancelled" &&
    last !== undefined &&
    last.to === "cancelled" &&
    last.actor.type === "partner" &&
    last.reason === reason
  );
}
