import { CURRENCY_CODES } from "../../lib/currencies.js";
import { INPUT_LIMITS } from "../../lib/input-limits.js";
import { MAX_DECIMAL_PLACES, MAX_PRICE } from "../../lib/money.js";
import { ORDER_STATUSES } from "./lifecycle.js";

/** JSON schemas of the sales order resource: request bodies are strict, every string bounded. */

const text = (maxLength: number, description?: string) =>
  ({
    type: "string",
    minLength: 1,
    maxLength,
    pattern: "\\S",
    ...(description ? { description } : {}),
  }) as const;

/** The order fields that take several lines (line breaks and tabs): the address and line notes. */
export const MULTILINE_ORDER_FIELDS = (path: readonly string[]): boolean =>
  (path.length === 1 && path[0] === "address") ||
  (path.length === 3 && path[0] === "products" && path[2] === "notes");

export const PRODUCT_INPUT = {
  type: "object",
  description: "ProductDto: one order line",
  required: ["product_code", "quantity"],
  additionalProperties: false,
  properties: {
    product_code: text(64, "The partner's or the catalogue's product code"),
    quantity: {
      type: "number",
      exclusiveMinimum: 0,
      maximum: 1_000_000_000,
      description: "Greater than 0",
    },
    uom: text(16, "Unit of measure, e.g. EA, BOX, KG"),
    unit_price: {
      type: ["number", "string"],
      "x-price": true,
      "x-accepts": `a price from 0 to ${MAX_PRICE} with at most ${MAX_DECIMAL_PLACES} decimal places, as a number (19.99) or a decimal string ("19.99")`,
      description:
        `Price per unit: 0 to ${MAX_PRICE} with at most ${MAX_DECIMAL_PLACES} decimal places, as a JSON ` +
        'number (19.99) or a decimal string ("19.99"); returned as a number, exactly as sent',
    },
    notes: { type: "string", maxLength: 500 },
  },
} as const;

export const CREATE_ORDER_BODY = {
  type: "object",
  required: ["customer_code", "site_code", "sales_name", "address", "products"],
  additionalProperties: false,
  properties: {
    customer_code: text(64, "Customer code"),
    site_code: text(64, "Site code"),
    sales_name: text(128, "Sales person name"),
    address: text(1000, "Delivery address"),
    purchase_order_no: {
      anyOf: [text(INPUT_LIMITS.purchaseOrderNo), { type: "null" }],
      description: "Purchase order number from the partner's system; unique per partner when given",
    },
    products: { type: "array", minItems: 1, maxItems: 500, items: PRODUCT_INPUT },
    currency: {
      type: ["string", "null"],
      enum: [...CURRENCY_CODES, null],
      "x-accepts":
        "an ISO 4217 code the gateway supports in capitals, e.g. IDR, USD or EUR (all are listed under currency in /docs), or null",
      description:
        "ISO 4217 code of the currency the prices are in, e.g. EUR; omitted or null: the currency agreed with the partner",
    },
  },
} as const;

export const PRODUCT_OUTPUT = {
  type: "object",
  required: ["line_no", "product_code", "quantity", "uom", "unit_price", "notes"],
  properties: {
    line_no: { type: "integer" },
    product_code: { type: "string" },
    quantity: { type: "number" },
    uom: { type: ["string", "null"] },
    unit_price: { type: ["number", "null"] },
    notes: { type: ["string", "null"] },
  },
} as const;

export const ORDER = {
  type: "object",
  required: [
    "id",
    "order_number",
    "status",
    "client_id",
    "purchase_order_no",
    "currency",
    "customer_code",
    "site_code",
    "sales_name",
    "address",
    "products",
    "created_at",
    "version",
    "updated_at",
  ],
  properties: {
    id: { type: "string", format: "uuid" },
    order_number: { type: "string", description: "Human-readable order number, e.g. SO-00000042" },
    status: {
      type: "string",
      enum: [...ORDER_STATUSES],
      description:
        "received → accepted | rejected | cancelled; accepted → fulfilled | cancelled (see the order lifecycle)",
    },
    client_id: { type: "string" },
    purchase_order_no: { type: ["string", "null"] },
    currency: {
      type: ["string", "null"],
      description: "ISO 4217 code, or null when the order did not name one",
    },
    customer_code: { type: "string" },
    site_code: { type: "string" },
    sales_name: { type: "string" },
    address: { type: "string" },
    products: { type: "array", items: PRODUCT_OUTPUT },
    created_at: { type: "string", format: "date-time" },
    version: {
      type: "integer",
      description: "1 at creation, +1 on every status change; the ETag is this number in quotes",
    },
    updated_at: {
      type: "string",
      format: "date-time",
      description: "The last status change (created_at until the first)",
    },
  },
} as const;

export const ORDER_CHANGE = {
  type: "object",
  required: ["from", "to", "at", "reason", "actor"],
  properties: {
    from: { type: ["string", "null"], description: "null for the creation" },
    to: { type: "string" },
    at: { type: "string", format: "date-time" },
    reason: { type: ["string", "null"] },
    actor: {
      type: "object",
      required: ["type", "name"],
      properties: {
        type: { type: "string", enum: ["partner", "user"] },
        name: {
          type: ["string", "null"],
          description: "The partner's client_id; a tenant user's email, shown to the tenant only",
        },
      },
    },
  },
} as const;

/** One order with its history (the creation first, then every status change). */
export const ORDER_DETAIL = {
  ...ORDER,
  required: [...ORDER.required, "history"],
  properties: { ...ORDER.properties, history: { type: "array", items: ORDER_CHANGE } },
} as const;

export const CREATED_RESPONSE = {
  type: "object",
  required: ["message", "data"],
  properties: { message: { type: "string" }, data: ORDER },
} as const;

export const ORDER_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: { data: ORDER_DETAIL },
} as const;

const reason = (required: boolean) =>
  ({
    type: "object",
    additionalProperties: false,
    ...(required ? { required: ["reason"] } : {}),
    properties: {
      reason: {
        ...text(
          INPUT_LIMITS.orderReason,
          required
            ? "Why (required), kept in the order's history"
            : "Why, kept in the order's history",
        ),
        ...(required ? {} : { type: ["string", "null"] }),
      },
    },
  }) as const;

/** Bodies of the status changes: reject and cancel need a reason, accept and fulfil may give one. */
export const REASON_REQUIRED_BODY = reason(true);
export const REASON_OPTIONAL_BODY = reason(false);

export const ORDER_LIST_RESPONSE = {
  type: "object",
  required: ["data", "next_cursor"],
  properties: {
    data: { type: "array", items: ORDER },
    next_cursor: {
      type: ["string", "null"],
      description: "Pass as ?cursor= for the next (older) page",
    },
  },
} as const;

export const ORDER_ID_PARAMS = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", minLength: 1, maxLength: 64 } },
} as const;

const LIST_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
    cursor: { type: "string", minLength: 1, maxLength: 200 },
  },
} as const;

/** An RFC 3339 instant with its offset (the listing filters compare instants, not local times). */
export const RFC3339 =
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$";

/** The order listings (partner and tenant): paging plus filters. */
export const ORDER_LIST_QUERY = {
  ...LIST_QUERY,
  properties: {
    ...LIST_QUERY.properties,
    status: {
      type: "string",
      enum: [...ORDER_STATUSES],
      description: "Only orders in this status",
    },
    created_from: {
      type: "string",
      pattern: RFC3339,
      description: "Only orders created at or after this instant (RFC 3339)",
    },
    created_to: {
      type: "string",
      pattern: RFC3339,
      description: "Only orders created before this instant (RFC 3339)",
    },
    purchase_order_no: {
      type: "string",
      minLength: 1,
      maxLength: 64,
      description:
        "The order with this purchase_order_no (at most one: they are unique per partner)",
    },
  },
} as const;

export const IF_MATCH_HEADERS = {
  type: "object",
  properties: {
    "if-match": {
      type: "string",
      description:
        'Optional: the ETag of the order as you read it (e.g. "3"); a stale one gets 412 and changes nothing.',
    },
  },
} as const;

export const IDEMPOTENCY_HEADERS = {
  type: "object",
  properties: {
    "idempotency-key": {
      type: "string",
      description:
        "Optional, 1–255 printable ASCII characters. A retry with the same key and body replays the first answer.",
    },
  },
} as const;
