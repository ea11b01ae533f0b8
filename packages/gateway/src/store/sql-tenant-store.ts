import type { ListDialect, Statement } from "./order-moves.js";
import { purgeStatement } from "./purge-statement.js";
import { SqlLoginFailures } from "./sql-login-failures.js";
import type { StatementResult } from "./sql-runner.js";
import { SqlSessionRevocations } from "./sql-session-revocation.js";
import { SqlTenantOrders } from "./sql-tenant-orders.js";
import type {
  ExpiringTable,
  LoginFailures,
  OrderCount,
  OrderTallies,
  OverridesRecord,
  TenantListOptions,
  TenantOrderPage,
  TenantOrderRecord,
  TenantRecord,
  TenantStore,
  TwoFactorPolicy,
  UserRecord,
  UserRole,
  VocabularyChangeRecord,
} from "./tenant-store.js";
import {
  compareAndSetOverrides,
  FIND_CHANGE,
  historyInsert,
  LIST_KEY_CHANGES,
  toVocabularyChange,
  type VocabularyChangeRow,
} from "./vocabulary-history.js";

/**
 * The tenant store in SQL both dialects understand (`?` placeholders; the PostgreSQL subclass
 * numbers them). Subclasses supply how a statement runs, and the one operation that needs a
 * dialect's own atomicity: replacing overrides while reading the previous ones. Tenants, users,
 * partners' tenants and vocabulary are here; the tenant's orders (sql-tenant-orders.ts), the
 * sign-in throttle's counts (sql-login-failures.ts) and revoked sessions
 * (sql-session-revocation.ts) each have their own module, which this class hands its SQL to.
 */

interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  password_hash: string;
  credential_version: number;
  role: UserRole;
  language: string;
  created_at: number;
  updated_at: number;
  disabled_at: number | null;
  last_sign_in_at: number | null;
  display_name: string | null;
}

interface OverridesRow {
  tenant_id: string;
  namespace: string;
  language: string;
  overrides: string;
  updated_at: number;
  updated_by: string | null;
}

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  email: r.email,
  passwordHash: r.password_hash,
  credentialVersion: r.credential_version,
  role: r.role,
  language: r.language,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  disabledAt: r.disabled_at,
  lastSignInAt: r.last_sign_in_at,
  displayName: r.display_name ?? null,
});

const toOverrides = (r: OverridesRow): OverridesRecord => ({
  tenantId: r.tenant_id,
  namespace: r.namespace,
  language: r.language,
  overrides: r.overrides,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

export abstract class SqlTenantStore implements TenantStore {
  readonly #run = {
    rows: <R>(sql: string, params: unknown[]) => this.rows<R>(sql, params),
    changes: (sql: string, params: unknown[]) => this.changes(sql, params),
  };
  readonly #logins = new SqlLoginFailures(this.#run);
  readonly #revocations = new SqlSessionRevocations(this.#run);
  readonly #orders: SqlTenantOrders;

  /** How this dialect words the listing statements (partnerOrdersStatement). */
  constructor(listDialect: ListDialect = {}) {
    this.#orders = new SqlTenantOrders(
      this.#run,
      (sql, params) => this.listRows(sql, params),
      listDialect,
    );
  }

  /** Runs a query and returns its rows. */
  protected abstract rows<R>(sql: string, params: unknown[]): Promise<R[]>;
  /**
   * The listing's heavy reads (pages, counts, searches): where a store runs them apart from
   * its quick lookups (SQLite: its reader threads). By default like any other read.
   */
  protected listRows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.rows<R>(sql, params);
  }
  /** Runs a statement and returns how many rows it changed. */
  protected abstract changes(sql: string, params: unknown[]): Promise<number>;
  abstract replaceOverrides(record: OverridesRecord): Promise<string | undefined>;
  /** Runs statements in one transaction. */
  protected abstract atomically(statements: Statement[]): Promise<StatementResult[]>;

  async writeOverrides(
    record: OverridesRecord,
    expected: string | undefined,
    history: readonly VocabularyChangeRecord[],
  ): Promise<boolean> {
    const [written] = await this.atomically([
      compareAndSetOverrides(record, expected),
      ...history.map((change) => historyInsert(record, change)),
    ]);
    return (written?.changes ?? 0) > 0;
  }

  async listVocabularyChanges(
    tenantId: string,
    namespace: string,
    key: string,
    limit: number,
  ): Promise<VocabularyChangeRecord[]> {
    const rows = await this.rows<VocabularyChangeRow>(LIST_KEY_CHANGES, [
      tenantId,
      namespace,
      key,
      limit,
    ]);
    return rows.map(toVocabularyChange);
  }

  async findVocabularyChange(
    tenantId: string,
    id: number,
  ): Promise<VocabularyChangeRecord | undefined> {
    const [row] = await this.rows<VocabularyChangeRow>(FIND_CHANGE, [tenantId, id]);
    return row && toVocabularyChange(row);
  }

  async #one<R>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await this.rows<R>(sql, params))[0];
  }

  async createTenant(t: TenantRecord): Promise<void> {
    await this.changes("INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)", [
      t.id,
      t.name,
      t.createdAt,
    ]);
  }

  async findTenant(id: string): Promise<TenantRecord | undefined> {
    const row = await this.#one<{
      id: string;
      name: string;
      created_at: number;
      two_factor_required: TwoFactorPolicy;
    }>("SELECT * FROM tenants WHERE id = ?", [id]);
    return (
      row && {
        id: row.id,
        name: row.name,
        createdAt: row.created_at,
        twoFactorRequired: row.two_factor_required,
      }
    );
  }

  async listTenants(): Promise<TenantRecord[]> {
    const rows = await this.rows<{ id: string; name: string; created_at: number }>(
      "SELECT * FROM tenants ORDER BY created_at, id",
      [],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }));
  }

  async setPartnerTenant(partnerId: string, tenantId: string | null): Promise<void> {
    await this.changes("UPDATE partners SET tenant_id = ? WHERE id = ?", [tenantId, partnerId]);
  }

  async partnerTenant(partnerId: string): Promise<string | null> {
    const row = await this.#one<{ tenant_id: string | null }>(
      "SELECT tenant_id FROM partners WHERE id = ?",
      [partnerId],
    );
    return row?.tenant_id ?? null;
  }

  async countTenantPartners(tenantId: string): Promise<number> {
    const row = await this.#one<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM partners WHERE tenant_id = ?",
      [tenantId],
    );
    return Number(row?.n ?? 0);
  }

  async tenantPartnerWithKey(tenantId: string, fingerprint: string): Promise<string | undefined> {
    const row = await this.#one<{ client_id: string }>(
      "SELECT p.client_id FROM partners p JOIN partner_keys k ON k.partner_id = p.id WHERE p.tenant_id = ? AND k.fingerprint = ? LIMIT 1",
      [tenantId, fingerprint],
    );
    return row?.client_id;
  }

  async createUser(u: UserRecord): Promise<boolean> {
    const changed = await this.changes(
      "INSERT INTO users (id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at, display_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      [
        u.id,
        u.tenantId,
        u.email,
        u.passwordHash,
        u.credentialVersion,
        u.role,
        u.language,
        u.createdAt,
        u.updatedAt,
        u.displayName ?? null,
      ],
    );
    return changed === 1;
  }

  async findUser(id: string): Promise<UserRecord | undefined> {
    const row = await this.#one<UserRow>("SELECT * FROM users WHERE id = ?", [id]);
    return row && toUser(row);
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    // The signed-up account first: invites nobody accepted yet may share its address, one per
    // tenant (migration 019).
    const row = await this.#one<UserRow>(
      "SELECT * FROM users WHERE email = ? ORDER BY CASE WHEN password_hash = '' THEN 1 ELSE 0 END, created_at LIMIT 1",
      [email],
    );
    return row && toUser(row);
  }

  async listUsers(tenantId: string): Promise<UserRecord[]> {
    const rows = await this.rows<UserRow>(
      "SELECT * FROM users WHERE tenant_id = ? ORDER BY created_at, email",
      [tenantId],
    );
    return rows.map(toUser);
  }

  async setUserLanguage(userId: string, language: string, at: number): Promise<void> {
    await this.changes("UPDATE users SET language = ?, updated_at = ? WHERE id = ?", [
      language,
      at,
      userId,
    ]);
  }

  async setUserPassword(userId: string, passwordHash: string, at: number): Promise<void> {
    await this.changes(
      "UPDATE users SET password_hash = ?, credential_version = credential_version + 1, updated_at = ? WHERE id = ?",
      [passwordHash, at, userId],
    );
  }

  async recordUserTokenRefresh(
    jti: string,
    userId: string,
    newJti: string,
    at: number,
  ): Promise<boolean> {
    const changed = await this.changes(
      "INSERT INTO user_token_refreshes (jti, user_id, new_jti, refreshed_at) VALUES (?, ?, ?, ?) ON CONFLICT (jti) DO NOTHING",
      [jti, userId, newJti, at],
    );
    return changed === 1;
  }

  loginFailures(accountKey: string): Promise<LoginFailures | undefined> {
    return this.#logins.loginFailures(accountKey);
  }

  loginFailuresOf(keys: readonly string[]): Promise<Map<string, LoginFailures>> {
    return this.#logins.loginFailuresOf(keys);
  }

  recordLoginFailure(accountKey: string, at: number, resetBefore: number): Promise<LoginFailures> {
    return this.#logins.recordLoginFailure(accountKey, at, resetBefore);
  }

  recordLoginFailures(keys: readonly string[], at: number, resetBefore: number): Promise<void> {
    return this.#logins.recordLoginFailures(keys, at, resetBefore);
  }

  clearLoginFailures(accountKey: string): Promise<void> {
    return this.#logins.clearLoginFailures(accountKey);
  }

  recordLoginSuccess(key: string, at: number): Promise<void> {
    return this.#logins.recordLoginSuccess(key, at);
  }

  /** Each dialect claims nonces in batches of its own (sqlite/nonce-writer, postgres/nonce-batch). */
  abstract claimRequestNonce(key: string, expiresAt: number): Promise<boolean>;

  async deleteExpired(table: ExpiringTable, before: number, limit: number): Promise<number> {
    return this.changes(purgeStatement(table), [before, limit]);
  }

  revokeSession(sid: string, subject: string, at: number, expiresAt: number): Promise<void> {
    return this.#revocations.revokeSession(sid, subject, at, expiresAt);
  }

  isSessionRevoked(sid: string): Promise<boolean> {
    return this.#revocations.isSessionRevoked(sid);
  }

  revokedSessions(subject: string, now: number): Promise<string[]> {
    return this.#revocations.revokedSessions(subject, now);
  }

  async findOverrides(
    tenantId: string,
    namespace: string,
    language: string,
  ): Promise<OverridesRecord | undefined> {
    const row = await this.#one<OverridesRow>(
      "SELECT * FROM tenant_overrides WHERE tenant_id = ? AND namespace = ? AND language = ?",
      [tenantId, namespace, language],
    );
    return row && toOverrides(row);
  }

  async listOverrides(tenantId: string): Promise<OverridesRecord[]> {
    const rows = await this.rows<OverridesRow>(
      "SELECT * FROM tenant_overrides WHERE tenant_id = ? ORDER BY namespace, language",
      [tenantId],
    );
    return rows.map(toOverrides);
  }

  async listOverrideNamespaces(tenantId: string): Promise<string[]> {
    const rows = await this.rows<{ namespace: string }>(
      "SELECT DISTINCT namespace FROM tenant_overrides WHERE tenant_id = ? AND overrides <> '{}' ORDER BY namespace",
      [tenantId],
    );
    return rows.map((r) => r.namespace);
  }

  listTenantOrders(tenantId: string, options: TenantListOptions): Promise<TenantOrderPage> {
    return this.#orders.listTenantOrders(tenantId, options);
  }

  countTenantOrders(tenantId: string, options: TenantListOptions): Promise<OrderCount> {
    return this.#orders.countTenantOrders(tenantId, options);
  }

  findTenantOrder(tenantId: string, orderId: string): Promise<TenantOrderRecord | undefined> {
    return this.#orders.findTenantOrder(tenantId, orderId);
  }

  async orderTallies(
    tenantId: string,
    fromDay: number,
    awaitingStatus: string,
  ): Promise<OrderTallies> {
    // Each partner's primary-key range (partner_id, day ≥ fromDay): rows, not orders.
    const [rows, awaiting] = await Promise.all([
      this.rows<TallyRow>(
        `SELECT t.day, p.client_id, p.name AS partner_name, t.status, t.currency, t.orders, CAST(t.amount AS TEXT) AS amount
         FROM partners p JOIN order_day_totals t ON t.partner_id = p.id
         WHERE p.tenant_id = ? AND t.day >= ?`,
        [tenantId, fromDay],
      ),
      this.rows<{ n: number | string | null }>(
        `SELECT sum(t.orders) AS n FROM partners p JOIN order_day_totals t ON t.partner_id = p.id
         WHERE p.tenant_id = ? AND t.status = ?`,
        [tenantId, awaitingStatus],
      ),
    ]);
    return {
      days: rows.map((r) => ({
        day: Number(r.day),
        clientId: r.client_id,
        partnerName: r.partner_name,
        status: r.status,
        currency: r.currency === "" ? null : r.currency,
        orders: Number(r.orders),
        amount: amountOf(r.amount),
      })),
      awaiting: Number(awaiting[0]?.n ?? 0),
    };
  }
}

/** The replace-and-return-previous statement both dialects run inside their own atomic unit. */
export const UPSERT_OVERRIDES =
  "INSERT INTO tenant_overrides (tenant_id, namespace, language, overrides, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, namespace, language) DO UPDATE SET overrides = excluded.overrides, updated_at = excluded.updated_at, updated_by = excluded.updated_by";

export const upsertParams = (r: OverridesRecord): unknown[] => [
  r.tenantId,
  r.namespace,
  r.language,
  r.overrides,
  r.updatedAt,
  r.updatedBy,
];

interface TallyRow {
  day: number;
  client_id: string;
  partner_name: string;
  status: string;
  currency: string;
  orders: number | string;
  amount: string;
}

/**
 * A tally's amount as stored: integer text, or (SQLite, past 64 bits, where its integer sum
 * turned into a double) a float's text, read as its nearest integer.
 */
const amountOf = (text: string): bigint =>
  /^-?\d+$/.test(text) ? BigInt(text) : BigInt(Math.round(Number(text)));
