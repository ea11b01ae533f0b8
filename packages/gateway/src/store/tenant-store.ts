import type { ListWindow } from "./order-moves.js";
import type { OrderPage, SalesOrderRecord } from "./records.js";

/**
 * Persistence of tenants, their users, their vocabulary overrides and the login throttle: the
 * part of the store the tenant-facing API (`/v1/…`) needs. Composed into `Store` as
 * `store.tenants`, implemented by every store kind over the same migrations. Times are Unix ms.
 */

/** Whose sign-in needs a second factor in a tenant (two-factor-store.ts). */
export type TwoFactorPolicy = "nobody" | "admins" | "everyone";

export interface TenantRecord {
  id: string;
  name: string;
  createdAt: number;
  /** Read from the store ('nobody' when absent); set with TwoFactorStore.setPolicy. */
  twoFactorRequired?: TwoFactorPolicy;
}

export type UserRole = "admin" | "member";

export interface UserRecord {
  id: string;
  tenantId: string;
  /** Lower-cased; unique across tenants, since it is the login name. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (see users/passwords.ts). */
  passwordHash: string;
  /** Bumped when the password changes; tokens carry the version they were issued under. */
  credentialVersion: number;
  role: UserRole;
  language: string;
  createdAt: number;
  updatedAt: number;
  /** When an admin disabled the user (every token refused, sign-in too); null: enabled. */
  disabledAt?: number | null;
  lastSignInAt?: number | null;
  /** What the person is called (trimmed; null: none chosen, shown by their email). */
  displayName?: string | null;
}

export interface OverridesRecord {
  tenantId: string;
  namespace: string;
  language: string;
  /** The nested overrides object as JSON text. */
  overrides: string;
  updatedAt: number;
  /** The user who wrote them; null when imported by the CLI. */
  updatedBy: string | null;
}

/** One change of one key of a tenant's vocabulary in one language. */
export interface VocabularyChangeRecord {
  /** Assigned by the store; increases with time. */
  id?: number;
  tenantId: string;
  namespace: string;
  language: string;
  /** Dotted key path. */
  key: string;
  /** The tenant's word after the change; null: back to the standard text. */
  text: string | null;
  /** set (one key), reset (one key back to standard), revert, replace (a namespace), import (CLI). */
  change: "set" | "reset" | "revert" | "replace" | "import";
  changedAt: number;
  /** The user; null for the CLI. */
  changedBy: string | null;
}

/**
 * The bookkeeping tables whose rows expire (store/purge.ts), in the order they are purged;
 * orders and keys never do.
 */
export type ExpiringTable =
  | "token_refreshes"
  | "user_token_refreshes"
  | "idempotency_keys"
  | "login_failures"
  | "revoked_sessions"
  | "console_sessions"
  | "webhook_attempts"
  | "webhook_deliveries"
  | "order_events"
  | "request_nonces"
  | "audit_events"
  | "password_links"
  | "second_factor_challenges"
  | "webhook_test_events"
  | "partner_request_log";

export interface LoginFailures {
  failures: number;
  lastFailedAt: number;
}

/** An order as a tenant user sees it: with the client_id and name of the partner that sent it. */
export interface TenantOrderRecord extends SalesOrderRecord {
  clientId: string;
  partnerName: string;
}

/** The tenant listing: the partner listing's window plus a partner and a free-text search. */
export interface TenantListOptions extends ListWindow {
  /** Only this partner's orders (its client_id). */
  clientId?: string;
  /** Contained (case-insensitive) in the PO number, customer, site, a product code or the partner. */
  q?: string;
}

/** How many orders a listing shows; `exact` false: at least `count` (a bounded count). */
export interface OrderCount {
  count: number;
  exact: boolean;
}

export interface TenantOrderPage extends Omit<OrderPage, "orders"> {
  orders: TenantOrderRecord[];
}

export interface TenantStore {
  createTenant(tenant: TenantRecord): Promise<void>;
  findTenant(id: string): Promise<TenantRecord | undefined>;
  listTenants(): Promise<TenantRecord[]>;
  /** Sets which tenant a partner's orders go to (null: none). */
  setPartnerTenant(partnerId: string, tenantId: string | null): Promise<void>;
  partnerTenant(partnerId: string): Promise<string | null>;
  /** How many partners the tenant has (the `partners` share). */
  countTenantPartners(tenantId: string): Promise<number>;
  /** The client_id of a partner of the tenant with a key of `fingerprint` (revoked too), if any. */
  tenantPartnerWithKey(tenantId: string, fingerprint: string): Promise<string | undefined>;

  /** Returns false, creating nothing, when the email is taken (signed up anywhere, or in the tenant). */
  createUser(user: UserRecord): Promise<boolean>;
  findUser(id: string): Promise<UserRecord | undefined>;
  /** The signed-up account with this email, else (an invite not yet accepted) the oldest invite. */
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  listUsers(tenantId: string): Promise<UserRecord[]>;
  setUserLanguage(userId: string, language: string, at: number): Promise<void>;
  /** Stores a new password hash and bumps credentialVersion (older tokens stop working). */
  setUserPassword(userId: string, passwordHash: string, at: number): Promise<void>;
  /** Like `Store.recordTokenRefresh`, for user tokens: each token refreshes once. */
  recordUserTokenRefresh(jti: string, userId: string, newJti: string, at: number): Promise<boolean>;

  loginFailures(accountKey: string): Promise<LoginFailures | undefined>;
  /** `loginFailures` for several keys in one round trip; keys with no count are absent. */
  loginFailuresOf(keys: readonly string[]): Promise<Map<string, LoginFailures>>;
  /**
   * Counts one failed login, atomically; a count whose last failure is older than `resetBefore`
   * starts again at 1. Returns the new state.
   */
  recordLoginFailure(accountKey: string, at: number, resetBefore: number): Promise<LoginFailures>;
  /** `recordLoginFailure` for several keys at once, in one statement. */
  recordLoginFailures(keys: readonly string[], at: number, resetBefore: number): Promise<void>;
  clearLoginFailures(accountKey: string): Promise<void>;
  /**
   * Remembers a successful sign-in under `key` as a count of no failures whose time is `at`
   * (`loginFailures(key)` then reads it back; it expires with the failure counts).
   */
  recordLoginSuccess(key: string, at: number): Promise<void>;
  /**
   * Remembers a signed request's nonce until `expiresAt`; false, changing nothing, when it is
   * remembered already (a replay). A row past its expiry still counts until purged: its
   * request's timestamp is outside the window by then, so nothing legitimate can repeat it.
   */
  claimRequestNonce(key: string, expiresAt: number): Promise<boolean>;
  /**
   * Deletes at most `limit` rows of `table` older than `before` (Unix ms); returns how many.
   * Serves every bookkeeping table, partner ones included: it is the store's dialect-neutral
   * SQL executor (store/purge.ts runs it).
   */
  deleteExpired(table: ExpiringTable, before: number, limit: number): Promise<number>;

  /**
   * Revokes every token of one login session (`sid`) of `subject` (`partner:<id>` or
   * `user:<id>`); `expiresAt` is when the session's last token would have expired anyway.
   * Partner and user sessions share this (and the login throttle) as the one SQL both use.
   */
  revokeSession(sid: string, subject: string, at: number, expiresAt: number): Promise<void>;
  isSessionRevoked(sid: string): Promise<boolean>;
  /** The revoked sessions of `subject` that could still hold a usable token at `now`. */
  revokedSessions(subject: string, now: number): Promise<string[]>;

  findOverrides(
    tenantId: string,
    namespace: string,
    language: string,
  ): Promise<OverridesRecord | undefined>;
  /** Replaces one language's overrides of a namespace atomically; returns the previous JSON. */
  replaceOverrides(record: OverridesRecord): Promise<string | undefined>;
  listOverrides(tenantId: string): Promise<OverridesRecord[]>;
  /** The namespaces the tenant has words in (in some language; emptied ones not counted). */
  listOverrideNamespaces(tenantId: string): Promise<string[]>;
  /**
   * Writes one language's overrides of a namespace if they are still `expected` (the JSON read
   * before; undefined: no row yet), with the history of the keys this write changes, in one
   * transaction. False when another write came first: nothing was written.
   */
  writeOverrides(
    record: OverridesRecord,
    expected: string | undefined,
    history: readonly VocabularyChangeRecord[],
  ): Promise<boolean>;
  /** A key's changes in every language, newest first. */
  listVocabularyChanges(
    tenantId: string,
    namespace: string,
    key: string,
    limit: number,
  ): Promise<VocabularyChangeRecord[]>;
  /** One change of the tenant's vocabulary; undefined when it is another tenant's or none. */
  findVocabularyChange(tenantId: string, id: number): Promise<VocabularyChangeRecord | undefined>;

  /** Orders created by the tenant's partners, newest first (the partner listing's paging). */
  listTenantOrders(tenantId: string, options: TenantListOptions): Promise<TenantOrderPage>;
  /** How many orders `listTenantOrders` would list (cursor ignored), counted within bounds. */
  countTenantOrders(tenantId: string, options: TenantListOptions): Promise<OrderCount>;
  findTenantOrder(tenantId: string, orderId: string): Promise<TenantOrderRecord | undefined>;
  /**
   * The tenant's daily order tallies (order_day_totals, migration 026) from UTC day number
   * `fromDay` on, and how many of its orders of any day are in `awaitingStatus`: a read of the
   * tenant's partners' tally rows (partners × days × statuses × currencies), never of orders.
   */
  orderTallies(tenantId: string, fromDay: number, awaitingStatus: string): Promise<OrderTallies>;
}

/** One row of order_day_totals with its partner's names. */
export interface DayTallyRecord {
  /** UTC day number of the orders' creation (Unix ms / 86 400 000). */
  day: number;
  clientId: string;
  partnerName: string;
  status: string;
  /** null: orders without a currency. */
  currency: string | null;
  orders: number;
  /** Sum of the orders' totals in the currency's minor units (lib/minor-units.ts). */
  amount: bigint;
}

export interface OrderTallies {
  days: DayTallyRecord[];
  awaiting: number;
}

/** One replay-guard nonce to claim (claimRequestNonce): kept until `expiresAt` (Unix ms). */
export interface NonceClaim {
  key: string;
  expiresAt: number;
}
