import { ApiError } from "./api.js";

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The codes that have a message of their own in `problems:code.*`. A test checks that every
 * code of the gateway's catalogue is here, so a new gateway code cannot reach people unworded.
 */
export const PROBLEM_CODES = [
  "validation_failed",
  "malformed_body",
  "text_invalid",
  "encoding_invalid",
  "url_invalid",
  "malformed_request",
  "cursor_invalid",
  "idempotency_key_invalid",
  "tenant_parameter_refused",
  "overrides_invalid",
  "webhook_url_invalid",
  "webhook_events_invalid",
  "invalid_client",
  "invalid_credentials",
  "token_missing",
  "token_invalid",
  "token_expired",
  "credentials_rotated",
  "refresh_window_closed",
  "refresh_token_reused",
  "session_ended",
  "session_revoked",
  "session_expired",
  "header_missing",
  "client_id_mismatch",
  "timestamp_invalid",
  "timestamp_too_old",
  "timestamp_in_future",
  "signature_malformed",
  "signature_invalid",
  "signature_version_unsupported",
  "signature_version_required",
  "request_replayed",
  "partner_disabled",
  "no_active_key",
  "role_forbidden",
  "cross_site_refused",
  "not_found",
  "order_not_found",
  "partner_not_found",
  "webhook_endpoint_not_found",
  "webhook_event_not_found",
  "method_not_allowed",
  "request_timeout",
  "duplicate_purchase_order",
  "order_transition_invalid",
  "order_version_mismatch",
  "payload_too_large",
  "uri_too_long",
  "unsupported_media_type",
  "partner_key_invalid",
  "partner_change_refused",
  "webhook_endpoint_limit",
  "partner_limit",
  "partner_key_in_use",
  "email_in_use",
  "idempotency_key_mismatch",
  "rate_limited",
  "language_unsupported",
  "login_throttled",
  "headers_too_large",
  "internal_error",
  "shutting_down",
  "login_busy",
  "store_unavailable",
  "list_busy",
  // Codes of features arriving beside this one (team, partner webhooks, live events,
  // vocabulary history): worded ahead, so they are never shown raw once merged.
  "user_disabled",
  "user_not_found",
  "user_exists",
  "last_admin",
  "password_link_invalid",
  "webhook_endpoint_disabled",
  "last_event_id_invalid",
  "too_many_streams",
  "placeholder_unknown",
  "vocabulary_change_not_found",
  "vocabulary_conflict",
  "second_factor_required",
  "second_factor_invalid",
  "second_factor_challenge_invalid",
  "two_factor_code_invalid",
  "two_factor_enrolment_required",
  "two_factor_already_enabled",
  "two_factor_not_pending",
  "two_factor_not_enabled",
] as const;

const KNOWN: ReadonlySet<string> = new Set(PROBLEM_CODES);

/** Codes that mean "not now": the message adds when to try again. */
const RETRYABLE = new Set([
  "rate_limited",
  "login_throttled",
  "shutting_down",
  "login_busy",
  "store_unavailable",
  "list_busy",
]);

const retryAfter = (error: ApiError): number | undefined => {
  const seconds = Number(error.body.retry_after);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
};

/**
 * What to tell a person about a failed request, in their language. Chosen by the problem's
 * code, never from its `detail`: the gateway's detail is English, and may name operator
 * settings or validator internals. An unknown code gets the generic message.
 */
export const problemText = (error: unknown, t: Translate): string => {
  if (!(error instanceof ApiError) || error.code === "network") return t("common:errors.network");
  const text = t(`problems:code.${KNOWN.has(error.code) ? error.code : "unknown"}`);
  if (!RETRYABLE.has(error.code)) return text;
  const seconds = retryAfter(error);
  return `${text} ${seconds === undefined ? t("problems:retrySoon") : t("problems:retryIn", { count: seconds })}`;
};

/** One field's fault as the gateway lists it (`errors[]` of a problem). */
interface FieldFault {
  pointer: string;
  keyword?: string;
  limit?: number;
}

const faultsOf = (error: ApiError): FieldFault[] => {
  const errors = error.body.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is FieldFault =>
      typeof e === "object" && e !== null && typeof (e as FieldFault).pointer === "string",
  );
};

const BOUNDED = new Set(["maxLength", "minLength", "maxItems", "minItems"]);

/** A field's fault in words: by the rule it broke and its bound, never the validator's text. */
const faultText = (code: string, fault: FieldFault, t: Translate): string => {
  const { keyword, limit } = fault;
  if (keyword === "required") return t("problems:field.required");
  if (keyword === "minLength" && limit === 1) return t("problems:field.required");
  if (keyword && BOUNDED.has(keyword) && typeof limit === "number")
    return t(`problems:field.${keyword}`, { count: limit });
  if (keyword === "format" || keyword === "pattern") return t("problems:field.format");
  if (code === "text_invalid" || code === "encoding_invalid") return t("problems:field.text");
  return t("problems:field.invalid");
};

/**
 * The problem's field errors in words, by the field they belong to: the JSON Pointer's first
 * segment (`/url` → `url`), the first fault of each field. Empty for a problem without fields.
 */
export const fieldProblems = (error: unknown, t: Translate): Map<string, string> => {
  const found = new Map<string, string>();
  if (!(error instanceof ApiError)) return found;
  for (const fault of faultsOf(error)) {
    const field = fault.pointer.split("/")[1] ?? "";
    if (field !== "" && !found.has(field)) found.set(field, faultText(error.code, fault, t));
  }
  return found;
};

/** Unicode code points, as the gateway counts a text's length (ajv's maxLength does too). */
export const textLength = (value: string): number => [...value].length;
