import { ERROR_CATALOGUE, type ErrorCode } from "../problems/catalogue.js";

/**
 * Codes only the tenant API (/v1, user tokens, the console) answers with: the partner API's
 * reference leaves them out of its Problem `code` list, so that a generated partner client
 * branches on codes it can meet. docs/gateway/errors.md lists them under "Tenant API".
 */
export const TENANT_ONLY_CODES: readonly ErrorCode[] = [
  "tenant_parameter_refused",
  "overrides_invalid",
  "placeholder_unknown",
  "invalid_credentials",
  "role_forbidden",
  "partner_not_found",
  "vocabulary_change_not_found",
  "vocabulary_conflict",
  "order_version_mismatch",
  "partner_key_invalid",
  "partner_change_refused",
  "partner_limit",
  "partner_key_in_use",
  "language_unsupported",
  "login_busy",
  "user_disabled",
  "user_not_found",
  "user_exists",
  "last_admin",
  "email_in_use",
  "password_link_invalid",
  "second_factor_required",
  "second_factor_invalid",
  "second_factor_challenge_invalid",
  "two_factor_code_invalid",
  "two_factor_enrolment_required",
  "two_factor_already_enabled",
  "two_factor_not_pending",
  "two_factor_not_enabled",
];

/** The codes a partner can meet, in catalogue order. */
export const PARTNER_CODES: readonly ErrorCode[] = (
  Object.keys(ERROR_CATALOGUE) as ErrorCode[]
).filter((code) => !TENANT_ONLY_CODES.includes(code));
