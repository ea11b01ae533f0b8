import {
  CREATE_ORDER_BODY,
  ORDER,
  ORDER_CHANGE,
  ORDER_DETAIL,
  ORDER_LIST_RESPONSE,
  PRODUCT_INPUT,
  PRODUCT_OUTPUT,
} from "../../domain/orders/schemas.js";
import { ATTEMPT, CREATED_ENDPOINT, ENDPOINT } from "../../domain/webhooks/schemas.js";
import { REFUSED_REQUEST } from "../request-log-schemas.js";
import { PROBLEM_SCHEMA } from "../schemas.js";
import { TOKEN_RESPONSE } from "../token-schemas.js";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is open-ended JSON.
type Json = any;

/**
 * The schemas generated clients get a type for, by name. The routes keep validating with the
 * plain objects; the reference documents replace every copy of one with a `$ref` (matched by
 * content, so a route that changes its schema silently stops being named rather than lying).
 */
const NAMED_SCHEMAS: Record<string, Json> = {
  Problem: PROBLEM_SCHEMA,
  ProblemFieldError: PROBLEM_SCHEMA.properties.errors.items,
  SalesOrderInput: CREATE_ORDER_BODY,
  SalesOrderLineInput: PRODUCT_INPUT,
  SalesOrder: ORDER,
  SalesOrderWithHistory: ORDER_DETAIL,
  SalesOrderLine: PRODUCT_OUTPUT,
  SalesOrderChange: ORDER_CHANGE,
  SalesOrderPage: ORDER_LIST_RESPONSE,
  Token: TOKEN_RESPONSE,
  WebhookEndpoint: ENDPOINT,
  WebhookEndpointWithSecret: CREATED_ENDPOINT,
  WebhookDelivery: ATTEMPT,
  RefusedRequest: REFUSED_REQUEST,
};

/** JSON with object keys sorted, so that equal schemas give equal strings. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/**
 * `document`'s paths and webhooks with every named schema replaced by a `$ref`, and the named
 * schemas that occur (themselves with their named parts replaced) as `schemas`.
 */
export function nameSchemas(
  paths: Json,
  webhooks: Json,
  named: Record<string, Json> = NAMED_SCHEMAS,
): { paths: Json; webhooks: Json; schemas: Record<string, Json> } {
  const byContent = new Map(Object.entries(named).map(([name, s]) => [canonical(s), name]));
  const used = new Set<string>();
  const replace = (value: Json, top: boolean): Json => {
    if (!value || typeof value !== "object") return value;
    if (!top) {
      const name = byContent.get(canonical(value));
      if (name !== undefined) {
        used.add(name);
        return { $ref: `#/components/schemas/${name}` };
      }
    }
    if (Array.isArray(value)) return value.map((v) => replace(v, false));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, false)]));
  };
  const out = { paths: replace(paths, true), webhooks: replace(webhooks, true) };
  const schemas: Record<string, Json> = {};
  // A named schema may name others (SalesOrder its lines): follow until none is new.
  for (let size = -1; size !== used.size; ) {
    size = used.size;
    for (const name of [...used]) schemas[name] ??= replace(named[name], true);
  }
  return {
    ...out,
    schemas: Object.fromEntries(
      Object.keys(named).flatMap((n) => (used.has(n) ? [[n, schemas[n]]] : [])),
    ),
  };
}
