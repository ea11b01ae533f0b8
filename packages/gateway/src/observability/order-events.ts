import { countOrderCreated, countOrderMove } from "./metrics.js";
import { rememberEventTrace } from "./tracing.js";

/** An order was created (or `moved` to `status`): counted, and its trace kept for delivery. */
export function noteOrderEvent(orderId: string, status: string, moved = false): void {
  if (moved) countOrderMove(status);
  else countOrderCreated();
  rememberEventTrace(orderId, status);
}
