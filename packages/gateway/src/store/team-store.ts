import type { UserRecord, UserRole } from "./tenant-store.js";

/**
 * Team management's writes (tenant-api/team-routes.ts through domain/users/team.ts): invites,
 * roles, disabling, one-time set-password links. Users are read through `store.tenants`.
 * Times are Unix ms.
 */

export type PasswordLinkPurpose = "invite" | "reset";

export interface PasswordLinkRecord {
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  tokenHash: string;
  userId: string;
  purpose: PasswordLinkPurpose;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** Why a change that would leave a tenant without an active admin was not made. */
export type GuardedChange = "changed" | "last_admin" | "not_found";

export interface TeamStore {
  /** A new user without a password and their invite link; false when the email is taken. */
  createInvitedUser(user: UserRecord, link: PasswordLinkRecord): Promise<boolean>;
  /**
   * Sets a user's role, unless that leaves the tenant without an enabled admin. The check and
   * the change are one statement.
   */
  setRole(tenantId: string, userId: string, role: UserRole, at: number): Promise<GuardedChange>;
  /**
   * Disables (bumping credentialVersion, so every token stops) or enables a user; disabling is
   * refused when it leaves the tenant without an enabled admin.
   */
  setDisabled(
    tenantId: string,
    userId: string,
    disabled: boolean,
    at: number,
  ): Promise<GuardedChange>;
  /** A new link for the user; the user's earlier unused links stop working. */
  replacePasswordLink(link: PasswordLinkRecord): Promise<void>;
  findPasswordLink(tokenHash: string): Promise<PasswordLinkRecord | undefined>;
  /**
   * Uses a link once: marks it used and sets the user's password (bumping credentialVersion)
   * in one transaction, only if it is unused, unexpired at `at` and its user enabled. Returns
   * the user's id, or undefined when nothing changed.
   */
  usePasswordLink(tokenHash: string, passwordHash: string, at: number): Promise<string | undefined>;
  recordSignIn(userId: string, at: number): Promise<void>;
}
