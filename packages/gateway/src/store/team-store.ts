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
  /**
   * A new user without a password and their invite link; false when the tenant has a user with
   * that email. Other tenants' users do not count: an invite holds an address only in its tenant
   * until it is accepted (then the address is the account's, everywhere).
   */
  createInvitedUser(user: UserRecord, link: PasswordLinkRecord): Promise<boolean>;
  /**
   * Sets a user's role, unless that leaves the tenant without an enabled admin. The check and
   * the change are one statement, in a transaction that locks the tenant first, so two admins
   * demoting each other at once cannot both succeed on PostgreSQL either.
   */
  setRole(tenantId: string, userId: string, role: UserRole, at: number): Promise<GuardedChange>;
  /**
   * Disables (bumping credentialVersion, so every token stops) or enables a user; disabling is
   * refused when it leaves the tenant without an enabled admin (under the same tenant lock as
   * setRole). Disabling and enabling both revoke the user's unused links: none issued before or
   * during the pause works after it.
   */
  setDisabled(
    tenantId: string,
    userId: string,
    disabled: boolean,
    at: number,
  ): Promise<GuardedChange>;
  /** An admin's new link for the user; the user's earlier unused links stop working. */
  replacePasswordLink(link: PasswordLinkRecord): Promise<void>;
  /**
   * A self-service ("forgot password") link beside the user's others: an anonymous request
   * must not void the link an admin just handed out.
   */
  addPasswordLink(link: PasswordLinkRecord): Promise<void>;
  findPasswordLink(tokenHash: string): Promise<PasswordLinkRecord | undefined>;
  /**
   * Uses a link once: marks it used and sets the user's password (bumping credentialVersion)
   * in one transaction, only if it is unused, unexpired at `at` and its user enabled; the
   * user's other unused links stop working. Returns
   * the user's id, or undefined when nothing changed.
   */
  usePasswordLink(tokenHash: string, passwordHash: string, at: number): Promise<string | undefined>;
  /** Sets (null: removes) a user's display name; false when the tenant has no such user. */
  setDisplayName(
    tenantId: string,
    userId: string,
    name: string | null,
    at: number,
  ): Promise<boolean>;
  recordSignIn(userId: string, at: number): Promise<void>;
}
