import { ORDER, ORDER_CHANGE, ORDER_LIST_QUERY, PRODUCT_OUTPUT } from "./schemas.js";

/**
 * The order as tenant staff read it: the partner's order plus what a desk needs and a partner
 * does not — the partner's name, each line's total and the order's total, exact decimals in the
 * order's currency (strings, since a total can need more digits than a JSON number keeps).
 */

const MONEY = {
  type: ["string", "null"],
  pattern: "^[0-9]+(\\.[0-9]+)?$",
} as const;

const TENANT_PRODUCT_OUTPUT = {
  ...PRODUCT_OUTPUT,
  required: [...PRODUCT_OUTPUT.required, "line_total"],
  properties: {
    ...PRODUCT_OUTPUT.properties,
    line_total: {
      ...MONEY,
      description: "quantity × unit_price, exact, as a decimal string; null without a unit_price",
    },
  },
} as const;

export const TENANT_ORDER = {
  ...ORDER,
  required: [...ORDER.required, "partner_name", "total"],
  properties: {
    ...ORDER.properties,
    partner_name: { type: "string", description: "The name of the partner that sent the order" },
    products: { type: "array", items: TENANT_PRODUCT_OUTPUT },
    total: {
      ...MONEY,
      description:
        "The sum of the line totals in `currency`, exact, as a decimal string; null when a line has no unit_price",
    },
  },
} as const;

export const TENANT_ORDER_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      ...TENANT_ORDER,
      required: [...TENANT_ORDER.required, "history"],
      properties: { ...TENANT_ORDER.properties, history: { type: "array", items: ORDER_CHANGE } },
    },
  },
} as const;

/** The filters of the tenant listing, the bulk moves' "all matching" and the CSV export. */
export const TENANT_FILTER_PROPERTIES = {
  status: ORDER_LIST_QUERY.properties.status,
  created_from: ORDER_LIST_QUERY.properties.created_from,
  created_to: ORDER_LIST_QUERY.properties.created_to,
  purchase_order_no: ORDER_LIST_QUERY.properties.purchase_order_no,
  q: {
    type: "string",
    minLength: 1,
    maxLength: 100,
    pattern: "\\S",
    description:
      "Free text, case-insensitive, contained in the purchase order number, customer code, site code, a product code, or the partner's name or client_id; digits also find the order with that number. `SO-00000123` (or `so123`) lists only the orders with that number, one per partner at most, exactly counted, however old. Other searches look through the newest 5,000 orders of each partner from the cursor on (narrow with dates to reach further back)",
  },
  partner: {
    type: "string",
    minLength: 1,
    maxLength: 64,
    description: "Only the orders of the partner with this client_id",
  },
  sort: {
    type: "string",
    enum: ["-created_at", "created_at"],
    default: "-created_at",
    description: "Newest first (default) or oldest first",
  },
} as const;

export const TENANT_ORDER_LIST_QUERY = {
  ...ORDER_LIST_QUERY,
  properties: { ...ORDER_LIST_QUERY.properties, ...TENANT_FILTER_PROPERTIES },
} as const;

export const TENANT_ORDER_LIST_RESPONSE = {
  type: "object",
  required: ["data", "next_cursor", "total"],
  properties: {
    data: { type: "array", items: TENANT_ORDER },
    next_cursor: {
      type: ["string", "null"],
      description:
        "Pass as ?cursor= (with the same filters and sort) for the next page; a search page may hold fewer than `limit` orders and still have one",
    },
    total: {
      type: "object",
      required: ["count", "exact"],
      properties: {
        count: { type: "integer", description: "How many orders match, at most 1,000" },
        exact: {
          type: "boolean",
          description:
            "false: at least `count` (the count stopped at 1,000, or a search stopped at its window)",
        },
      },
    },
  },
} as const;
