import { ApiError } from "../lib/api.js";
import { problemText, type Translate } from "../lib/problem-text.js";

export interface Member {
  id: string;
  /** The display name; null when none is set (shown by the email). */
  name: string | null;
  email: string;
  role: "admin" | "member";
  language: string;
  status: "invited" | "active" | "disabled";
  created_at: string;
  last_sign_in_at: string | null;
}

/** With mail configured the gateway mails the link only: no token or path comes back. */
export interface IssuedLink {
  token?: string;
  path?: string;
  expires_at: string;
  mailed: boolean;
}

/** A change an admin makes to a member (PATCH /v1/tenant/users/{id}). */
export type MemberChange = { role?: Member["role"]; disabled?: boolean; name?: string | null };

/** The refusals an admin can meet here, in their language; others as the gateway says them. */
const KNOWN = ["last_admin", "user_exists", "validation_failed", "user_not_found"];
export const teamProblem = (failure: unknown, t: Translate): string =>
  failure instanceof ApiError && KNOWN.includes(failure.code)
    ? t(`errors.${failure.code}`)
    : problemText(failure, t);
