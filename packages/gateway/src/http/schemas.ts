import { ERROR_CATALOGUE } from "../problems/catalogue.js";

/** The problem+json body, as documented in OpenAPI and used to serialise error responses. */
export const PROBLEM_SCHEMA = {
  type: "object",
  required: ["type", "title", "status", "detail", "code"],
  properties: {
    type: { type: "string", description: "urn:orderline:problem:<code>" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    code: { type: "string", enum: Object.keys(ERROR_CATALOGUE) },
    request_id: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: {
          in: { type: "string", description: "body, querystring, params or headers" },
          pointer: { type: "string", description: "JSON Pointer to the offending field" },
          message: { type: "string", description: "The fault in English, for logs and people" },
          keyword: {
            type: "string",
            description: "The rule broken (maxLength, minLength, required, format, …)",
          },
          limit: { type: "number", description: "The rule's bound, e.g. the maximum length" },
          allowed: {
            type: "array",
            items: { type: "string" },
            description: "placeholder_unknown: the placeholders the standard text fills in",
          },
        },
      },
    },
  },
  additionalProperties: true,
} as const;

const DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (code validation_failed, malformed_body, …)",
  401: "Authentication failed; `code` says which check",
  403: "Partner disabled or without an active key, or a user role that may not do this",
  404: "Not found",
  409: "Conflict with an existing order, or words that kept changing (vocabulary_conflict)",
  413: "Body larger than 1 MiB",
  415: "Content type other than application/json, or a charset other than UTF-8",
  422: "Idempotency-Key reused with a different body, or an unsupported language",
  431: "Request headers larger than 16 KiB",
  429: "Too many attempts; Retry-After says when to try again",
  500: "Internal error",
  503: "Busy (code login_busy, list_busy) or the store cannot be reached (store_unavailable); Retry-After says when to try again",
};

/** Route-schema `response` entries for the given error statuses. */
export function problemResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: DESCRIPTIONS[status] ?? "Error",
        content: { "application/problem+json": { schema: PROBLEM_SCHEMA } },
      },
    ]),
  );
}

/**
 * The response schema of one resource in the APIs' envelope: `{ "data": <resource> }` (lists
 * are `{ "data": [...] }`; docs/gateway/api.md, "Envelope"). Every route answering a resource
 * wraps it so.
 */
export const enveloped = (data: object) =>
  ({ type: "object", required: ["data"], properties: { data } }) as const;
