/** A refused request as the partner's request log lists it (the route and the API reference). */
export const REFUSED_REQUEST = {
  type: "object",
  required: ["at", "method", "path", "status", "code", "request_id", "detail", "expected"],
  properties: {
    at: { type: "string", format: "date-time" },
    method: { type: "string" },
    path: { type: "string", description: "Without the query string" },
    status: { type: "integer" },
    code: { type: "string", description: "The problem's code (errors catalogue)" },
    request_id: { type: "string", description: "As in the X-Request-Id of the answer" },
    detail: { type: ["string", "null"] },
    expected: {
      type: ["object", "null"],
      description:
        "What the gateway expected, as the problem said it: for a signature failure signature_version, string_to_sign and hints; server_time for a timestamp; missing_headers; validation errors",
      additionalProperties: true,
    },
  },
} as const;
