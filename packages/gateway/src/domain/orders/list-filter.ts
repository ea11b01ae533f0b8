import { ApiError } from "../../problems/api-error.js";
import type { OrderFilter } from "../../store/store.js";

/** The query of the order listings (partner and tenant), as the schema let it through. */
export interface ListQuery {
  limit: number;
  cursor?: string;
  status?: string;
  created_from?: string;
  created_to?: string;
  purchase_order_no?: string;
}

/** The schema checked the shape; a date that does not exist (2026-13-01) is refused here. */
export function instantMillis(name: string, instant: string): number {
  const at = Date.parse(instant);
  if (Number.isNaN(at)) {
    throw new ApiError("validation_failed", `${name} is not a date that exists: '${instant}'.`, {
      errors: [{ pointer: `/${name}`, message: "must be an existing RFC 3339 date-time" }],
    });
  }
  return at;
}

export function filterOf(q: ListQuery): OrderFilter {
  return {
    ...(q.status === undefined ? {} : { status: q.status }),
    ...(q.created_from === undefined
      ? {}
      : { createdFrom: instantMillis("created_from", q.created_from) }),
    ...(q.created_to === undefined ? {} : { createdTo: instantMillis("created_to", q.created_to) }),
    ...(q.purchase_order_no === undefined ? {} : { purchaseOrderNo: q.purchase_order_no }),
  };
}
