/**
 * The error catalogue: every problem the gateway answers with, by stable code. Partners branch
 * on `code`; `title` is fixed per code and `detail` explains the instance.
 * docs/gateway/errors.md documents each entry; a test keeps the two in step.
 * It knows no HTTP framework: the domain, security and the CLI refuse with these codes, and
 * http/error-handler.ts alone renders them as problem+json responses.
 */
export const ERROR_CATALOGUE = {
  validation_failed: { status: 400, title: "The request is not valid" },
  malformed_body: { status: 400, title: "The request body could not be parsed" },
  text_invalid: {
    status: 400,
    title: "A text value holds a control character or is not well-formed Unicode",
  },
  encoding_invalid: { status: 400, title: "The request body is not valid UTF-8" },
  url_invalid: { status: 400, title: "The request path is not valid percent-encoded UTF-8" },
  malformed_request: { status: 400, title: "The request is not valid HTTP" },
  cursor_invalid: { status: 400, title: "The pagination cursor is not valid" },
  last_event_id_invalid: {
    status: 400,
    title: "Last-Event-ID names no event this stream can resume from",
  },
  idempotency_key_invalid: { status: 400, title: "The Idempotency-Key header is not valid" },
  tenant_parameter_refused: {
    status: 400,
    title: "The tenant comes from the token; the request must not name one",
  },
  overrides_invalid: { status: 400, title: "The vocabulary overrides are not valid" },
  placeholder_unknown: {
    status: 400,
    title: "A word uses a placeholder its standard text does not fill in",
  },
  webhook_url_invalid: { status: 400, title: "The webhook URL cannot receive deliveries" },
  webhook_events_invalid: { status: 400, title: "The webhook event types are not valid" },
  invalid_client: { status: 401, title: "Invalid client credentials" },
  invalid_credentials: { status: 401, title: "Invalid email or password" },
  token_missing: { status: 401, title: "No bearer token" },
  token_invalid: { status: 401, title: "The token is not valid" },
  token_expired: { status: 401, title: "The token has expired" },
  credentials_rotated: {
    status: 401,
    title: "The partner's secret was rotated after this token was issued",
  },
  refresh_window_closed: { status: 401, title: "The token expired too long ago to be refreshed" },
  refresh_token_reused: { status: 401, title: "The token was already refreshed" },
  session_ended: {
    status: 401,
    title: "The console session was signed out, ended by an admin or timed out",
  },
  session_revoked: {
    status: 401,
    title: "The token's session was revoked after a refresh token was reused",
  },
  session_expired: { status: 401, title: "The session has reached its maximum age" },
  header_missing: { status: 401, title: "A required authentication header is missing" },
  client_id_mismatch: { status: 401, title: "X-CLIENT-ID does not match the token" },
  timestamp_invalid: { status: 401, title: "X-TIMESTAMP is not a valid timestamp" },
  timestamp_too_old: { status: 401, title: "X-TIMESTAMP is too far in the past" },
  timestamp_in_future: { status: 401, title: "X-TIMESTAMP is too far in the future" },
  signature_malformed: { status: 401, title: "X-SIGNATURE is not valid base64" },
  signature_invalid: { status: 401, title: "X-SIGNATURE does not verify" },
  signature_version_unsupported: { status: 401, title: "X-SIGNATURE-VERSION is not 1 or 2" },
  signature_version_required: {
    status: 401,
    title: "This partner must sign requests with signature version 2",
  },
  request_replayed: {
    status: 409,
    title: "This exact signed request was received before",
  },
  partner_disabled: { status: 403, title: "The partner is disabled" },
  no_active_key: { status: 403, title: "The partner has no active public key" },
  role_forbidden: { status: 403, title: "The user's role does not allow this" },
  cross_site_refused: {
    status: 403,
    title: "A change to the tenant API from another site's page",
  },
  not_found: { status: 404, title: "No such resource" },
  order_not_found: { status: 404, title: "No such sales order" },
  partner_not_found: { status: 404, title: "No such partner" },
  webhook_endpoint_not_found: { status: 404, title: "No such webhook endpoint" },
  webhook_event_not_found: { status: 404, title: "No such event" },
  vocabulary_change_not_found: { status: 404, title: "No such vocabulary history entry" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  request_timeout: { status: 408, title: "The request took too long to arrive" },
  duplicate_purchase_order: {
    status: 409,
    title: "An order with this purchase_order_no already exists",
  },
  order_transition_invalid: {
    status: 409,
    title: "The order's status does not allow this change",
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: "The webhook endpoint is disabled",
  },
  order_version_mismatch: {
    status: 412,
    title: "The order changed since the version named in If-Match",
  },
  vocabulary_conflict: {
    status: 409,
    title: "The words kept changing while this change was written",
  },
  payload_too_large: { status: 413, title: "The request body is too large" },
  uri_too_long: { status: 414, title: "A path segment is too long" },
  unsupported_media_type: { status: 415, title: "Unsupported content type" },
  partner_key_invalid: { status: 422, title: "The public key cannot be registered" },
  partner_change_refused: { status: 422, title: "The partner cannot be changed that way" },
  webhook_endpoint_limit: {
    status: 422,
    title: "The partner has as many webhook endpoints as allowed",
  },
  partner_limit: { status: 422, title: "The tenant has as many partners as allowed" },
  partner_key_in_use: {
    status: 422,
    title: "Another partner of the tenant has this public key",
  },
  idempotency_key_mismatch: {
    status: 422,
    title: "The Idempotency-Key was used with a different body",
  },
  rate_limited: { status: 429, title: "Too many requests for this client" },
  too_many_streams: { status: 429, title: "Too many event streams are open" },
  language_unsupported: { status: 422, title: "The language is not supported" },
  login_throttled: { status: 429, title: "Too many failed sign-ins for this account" },
  headers_too_large: { status: 431, title: "The request headers are too large" },
  internal_error: { status: 500, title: "Internal error" },
  shutting_down: { status: 503, title: "This instance is shutting down" },
  login_busy: { status: 503, title: "Too many sign-ins are being checked; retry shortly" },
  list_busy: { status: 503, title: "Too many order listings are running; retry shortly" },
  store_unavailable: {
    status: 503,
    title: "The order store cannot be reached right now; retry shortly",
  },
  // Team management (tenant-api/team-routes.ts).
  user_disabled: { status: 401, title: "The user is disabled" },
  user_not_found: { status: 404, title: "No such user in the tenant" },
  user_exists: { status: 409, title: "A user with this email already exists" },
  last_admin: { status: 409, title: "The tenant must keep an active admin" },
  email_in_use: { status: 409, title: "This email already has an account" },
  password_link_invalid: {
    status: 410,
    title: "The set-password link was used, has expired or was replaced",
  },
  // Two-step sign-in (domain/users/two-factor.ts).
  second_factor_required: {
    status: 401,
    title: "The password matched; a code from the authenticator app is needed too",
  },
  second_factor_invalid: {
    status: 401,
    title: "The code is not a current authenticator code nor an unused recovery code",
  },
  second_factor_challenge_invalid: {
    status: 401,
    title: "The sign-in's challenge is unknown, used or expired",
  },
  two_factor_code_invalid: {
    status: 422,
    title: "The code is not a current authenticator code nor an unused recovery code",
  },
  two_factor_enrolment_required: {
    status: 403,
    title: "The tenant requires two-step sign-in; set it up before anything else",
  },
  two_factor_already_enabled: { status: 409, title: "Two-step sign-in is on already" },
  two_factor_not_pending: { status: 409, title: "No two-step sign-in set-up is pending" },
  two_factor_not_enabled: { status: 409, title: "Two-step sign-in is not on" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

const PROBLEM_TYPE_PREFIX = "urn:orderline:problem:";

export interface FieldError {
  /** JSON Pointer into the request body, e.g. `/products/0/quantity`. */
  pointer: string;
  message: string;
  /** The rule broken, e.g. `maxLength`, `required`, `format` (ajv's keyword names). */
  keyword?: string;
  /** The rule's bound, e.g. 2048 for a `maxLength` of 2048. */
  limit?: number;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export function problemOf(
  code: ErrorCode,
  detail: string,
  extensions: Record<string, unknown> = {},
): Problem {
  const entry = ERROR_CATALOGUE[code];
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: entry.title,
    status: entry.status,
    detail,
    code,
    ...extensions,
  };
}
