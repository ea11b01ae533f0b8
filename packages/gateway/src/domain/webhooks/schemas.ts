import { MAX_URL_LENGTH } from "./address-guard.js";
import { MAX_ATTEMPTS_LISTED } from "./endpoint-admin.js";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "./event-types.js";

/**
 * JSON schemas of the webhook endpoint resource, the same for the tenant API (admins on their
 * partners' endpoints) and the partner API (a partner on its own): one shape, one set of limits.
 */

export const ID = { type: "string", minLength: 1, maxLength: 64 } as const;

const URL_FIELD = {
  type: "string",
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description:
    "Where deliveries are POSTed: http(s), no credentials; private and loopback addresses only when the gateway allows them",
} as const;

// Any string here: an unknown type gets the catalogue's webhook_events_invalid with the list.
const EVENTS_FIELD = {
  type: "array",
  minItems: 1,
  maxItems: 16,
  items: { type: "string", minLength: 1, maxLength: 64 },
  description: `Event types to receive (${WEBHOOK_EVENT_TYPES.join(", ")}), or ["${ALL_EVENTS}"] for all`,
} as const;

const TIME = { type: "string", format: "date-time" } as const;
const TIME_OR_NULL = { type: ["string", "null"], format: "date-time" } as const;

const ENDPOINT_PROPERTIES = {
  id: { type: "string", description: "we_…" },
  url: { type: "string" },
  events: { type: "array", items: { type: "string" } },
  enabled: { type: "boolean" },
  disabled_reason: {
    type: ["string", "null"],
    description: "Why the endpoint is disabled: by whom, or after how long of failed deliveries",
  },
  created_at: TIME,
  updated_at: TIME,
  last_success_at: TIME_OR_NULL,
  failing_since: {
    ...TIME_OR_NULL,
    description: "The first failed attempt since the last success; null while deliveries succeed",
  },
} as const;

const ENDPOINT_REQUIRED = Object.keys(ENDPOINT_PROPERTIES);

export const ENDPOINT = {
  type: "object",
  required: ENDPOINT_REQUIRED,
  properties: ENDPOINT_PROPERTIES,
} as const;

export const SECRET = {
  type: "string",
  description: "whsec_…: shown once; sign-check deliveries with it (see Webhooks in api.md)",
} as const;

export const CREATED_ENDPOINT = {
  type: "object",
  required: [...ENDPOINT_REQUIRED, "secret"],
  properties: { ...ENDPOINT_PROPERTIES, secret: SECRET },
} as const;

export const CREATE_BODY = {
  type: "object",
  required: ["url", "events"],
  additionalProperties: false,
  properties: { url: URL_FIELD, events: EVENTS_FIELD },
} as const;

export const CHANGE_BODY = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    url: URL_FIELD,
    events: EVENTS_FIELD,
    enabled: {
      type: "boolean",
      description: "Enabling also clears the failure streak; queued deliveries resume",
    },
  },
} as const;

export const ROTATED_SECRET = {
  type: "object",
  required: ["secret", "previous_valid_until"],
  properties: {
    secret: SECRET,
    previous_valid_until: {
      ...TIME_OR_NULL,
      description: "Until when deliveries also carry a signature with the old secret",
    },
  },
} as const;

export const ATTEMPT = {
  type: "object",
  required: [
    "id",
    "event_id",
    "event_type",
    "attempt",
    "status",
    "response_status",
    "duration_ms",
    "error",
    "attempted_at",
  ],
  properties: {
    id: { type: "string" },
    event_id: { type: "string", description: "evt_…, as in Orderline-Event-Id" },
    event_type: { type: "string" },
    attempt: { type: "integer", description: "1 for the first attempt of the event" },
    status: { type: "string", enum: ["succeeded", "failed"] },
    response_status: { type: ["integer", "null"], description: "null: no HTTP response" },
    duration_ms: { type: "integer" },
    error: { type: ["string", "null"] },
    attempted_at: TIME,
  },
} as const;

export const DELIVERIES_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: { type: "integer", minimum: 1, maximum: MAX_ATTEMPTS_LISTED, default: 20 },
  },
} as const;

export const TEST_SENT = {
  type: "object",
  required: ["event_id"],
  properties: {
    event_id: {
      type: "string",
      description: "evt_… of the webhook.test event queued for the endpoint, due now",
    },
  },
} as const;
