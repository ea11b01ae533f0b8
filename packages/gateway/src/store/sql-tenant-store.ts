import type { Statement } from "./order-moves.js";
import { type ListDialect, newestFirst, partnerOrdersStatement } from "./order-moves.js";
import { type OrderRow, pageOf, toOrder } from "./rows.js";
import type { StatementResult } from "./sql-runner.js";
import type { OrderFilter } from "./store.js";
import type {
  ExpiringTable,
  LoginFailures,
  OverridesRecord,
  TenantOrderPage,
  TenantOrderRecord,
  TenantRecord,
  TenantStore,
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

/** A failed login on an existing count: +1, or 1 again when the last one is older than `?`. */
const COUNT_FAILURE =
  " ON CONFLICT (account_key) DO UPDATE SET failures = CASE WHEN login_failures.last_failed_at < ? THEN 1 ELSE login_failures.failures + 1 END, last_failed_at = excluded.last_failed_at";

/** Each expiring table's key and time columns. */
const EXPIRING: Record<ExpiringTable, { key: string; time: string }> = {
  token_refreshes: { key: "jti", time: "refreshed_at" },
  user_token_refreshes: { key: "jti", time: "refreshed_at" },
  idempotency_keys: { key: "(partner_id, idem_key)", time: "created_at" },
  login_failures: { key: "account_key", time: "last_failed_at" },
  revoked_sessions: { key: "sid", time: "expires_at" },
  webhook_attempts: { key: "id", time: "attempted_at" },
  // A delivery's attempts go with it (ON DELETE CASCADE).
  webhook_deliveries: { key: "(endpoint_id, event_id)", time: "updated_at" },
  order_events: { key: "seq", time: "created_at" },
  request_nonces: { key: "nonce_key", time: "expires_at" },
  webhook_test_events: { key: "id", time: "created_at" },
  partner_request_log: { key: "id", time: "at" },
  audit_events: { key: "seq", time: "created_at" },
};

/**
 * Order events go by order, all at once: only when every event of the order is past the cutoff,
 * fanned out, and has no delivery left (deliveries go first, by webhook retention). A resend
 * needs its event, and a delivery's body counts the order's earlier events.
 */
function orderEventsPurge(lock: string): string {
  return `DELETE FROM order_events WHERE seq IN (SELECT e.seq FROM order_events e, (SELECT CAST(? AS BIGINT) AS t) cutoff WHERE e.created_at < cutoff.t AND NOT EXISTS (SELECT 1 FROM order_events n WHERE n.order_id = e.order_id AND (n.created_at >= cutoff.t OR n.dispatched_at IS NULL OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = n.id))) LIMIT ?${lock ? ` ${lock.replace("FOR UPDATE", "FOR UPDATE OF e")}` : ""})`;
}

/**
 * At most `limit` rows older than a cutoff, by primary key: one short transaction per batch, so
 * a purge never holds the write lock long. `lock` is a row-locking clause for the dialects that
 * have one (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so purges racing on several instances take
 * disjoint rows instead of waiting on, or deadlocking over, each other's).
 */
export function purgeStatement(table: ExpiringTable, lock = ""): string {
  if (table === "order_events") return orderEventsPurge(lock);
  const { key, time } = EXPIRING[table];
  const columns = key.replace(/[()]/g, "");
  return `DELETE FROM ${table} WHERE ${key} IN (SELECT ${columns} FROM ${table} WHERE ${time} < ? LIMIT ?${lock ? ` ${lock}` : ""})`;
}

/**
 * The tenant store in SQL both dialects understand (`?` placeholders; the PostgreSQL subclass
 * numbers them). Subclasses supply how a statement runs, and the one operation that needs a
 * dialect's own atomicity: replacing overrides while reading the previous ones.
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
}

export interface OverridesRow {
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
});

const toOverrides = (r: OverridesRow): OverridesRecord => ({
  tenantId: r.tenant_id,
  namespace: r.namespace,
  language: r.language,
  overrides: r.overrides,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

const TENANT_ORDERS =
  "SELECT o.*, p.client_id AS client_id FROM sales_orders o JOIN partners p ON p.id = o.partner_id WHERE p.tenant_id = ?";

export abstract class SqlTenantStore implements TenantStore {
  /** How this dialect words the listing statements (partnerOrdersStatement). */
  constructor(private readonly listDialect: ListDialect = {}) {}

  /** Runs a query and returns its rows. */
  protected abstract rows<R>(sql: string, params: unknown[]): Promise<R[]>;
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
    const row = await this.#one<{ id: string; name: string; created_at: number }>(
      "SELECT * FROM tenants WHERE id = ?",
      [id],
    );
    return row && { id: row.id, name: row.name, createdAt: row.created_at };
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

  async createUser(u: UserRecord): Promise<boolean> {
    const changed = await this.changes(
      "INSERT INTO users (id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
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
      ],
    );
    return changed === 1;
  }

  async findUser(id: string): Promise<UserRecord | undefined> {
    const row = await this.#one<UserRow>("SELECT * FROM users WHERE id = ?", [id]);
    return row && toUser(row);
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.#one<UserRow>("SELECT * FROM users WHERE email = ?", [email]);
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

  async loginFailures(accountKey: string): Promise<LoginFailures | undefined> {
    const row = await this.#one<{ failures: number; last_failed_at: number }>(
      "SELECT failures, last_failed_at FROM login_failures WHERE account_key = ?",
      [accountKey],
    );
    return row && { failures: row.failures, lastFailedAt: row.last_failed_at };
  }

  async loginFailuresOf(keys: readonly string[]): Promise<Map<string, LoginFailures>> {
    const found = new Map<string, LoginFailures>();
    if (keys.length === 0) return found;
    const rows = await this.rows<{ account_key: string; failures: number; last_failed_at: number }>(
      `SELECT account_key, failures, last_failed_at FROM login_failures WHERE account_key IN (${keys.map(() => "?").join(", ")})`,
      [...keys],
    );
    for (const row of rows)
      found.set(row.account_key, { failures: row.failures, lastFailedAt: row.last_failed_at });
    return found;
  }

  async recordLoginFailure(
    accountKey: string,
    at: number,
    resetBefore: number,
  ): Promise<LoginFailures> {
    const row = await this.#one<{ failures: number; last_failed_at: number }>(
      `INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES (?, 1, ?)${COUNT_FAILURE} RETURNING failures, last_failed_at`,
      [accountKey, at, resetBefore],
    );
    if (!row) throw new Error("recording a failed login returned no row");
    return { failures: row.failures, lastFailedAt: row.last_failed_at };
  }

  async recordLoginFailures(
    keys: readonly string[],
    at: number,
    resetBefore: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    // One statement, so one commit (one fsync on SQLite) for all the counts of a failure.
    await this.changes(
      `INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES ${keys.map(() => "(?, 1, ?)").join(", ")}${COUNT_FAILURE}`,
      [...keys.flatMap((key) => [key, at]), resetBefore],
    );
  }

  async clearLoginFailures(accountKey: string): Promise<void> {
    await this.changes("DELETE FROM login_failures WHERE account_key = ?", [accountKey]);
  }

  async recordLoginSuccess(key: string, at: number): Promise<void> {
    await this.changes(
      "INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES (?, 0, ?) ON CONFLICT (account_key) DO UPDATE SET failures = 0, last_failed_at = excluded.last_failed_at",
      [key, at],
    );
  }

  async claimRequestNonce(key: string, expiresAt: number): Promise<boolean> {
    return (
      (await this.changes(
        "INSERT INTO request_nonces (nonce_key, expires_at) VALUES (?, ?) ON CONFLICT (nonce_key) DO NOTHING",
        [key, expiresAt],
      )) === 1
    );
  }

  async deleteExpired(table: ExpiringTable, before: number, limit: number): Promise<number> {
    return this.changes(purgeStatement(table), [before, limit]);
  }

  async revokeSession(sid: string, subject: string, at: number, expiresAt: number): Promise<void> {
    await this.changes(
      "INSERT INTO revoked_sessions (sid, subject, revoked_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (sid) DO NOTHING",
      [sid, subject, at, expiresAt],
    );
  }

  async isSessionRevoked(sid: string): Promise<boolean> {
    return (
      (await this.#one("SELECT 1 AS revoked FROM revoked_sessions WHERE sid = ?", [sid])) !==
      undefined
    );
  }

  async revokedSessions(subject: string, now: number): Promise<string[]> {
    const rows = await this.rows<{ sid: string }>(
      "SELECT sid FROM revoked_sessions WHERE subject = ? AND expires_at > ?",
      [subject, now],
    );
    return rows.map((r) => r.sid);
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

  /**
   * Each partner's page (an index range of at most `limit + 1` rows, partnerOrdersStatement)
   * merged newest first: bounded by the tenant's partners times the page, never by its orders.
   */
  async listTenantOrders(
    tenantId: string,
    options: { limit: number; beforeSeq?: number; filter?: OrderFilter },
  ): Promise<TenantOrderPage> {
    const partners = await this.rows<{ id: string; client_id: string }>(
      "SELECT id, client_id FROM partners WHERE tenant_id = ?",
      [tenantId],
    );
    const pages = await Promise.all(
      partners.map(({ id }) => {
        const { sql, params } = partnerOrdersStatement(id, options, this.listDialect);
        return this.rows<OrderRow>(sql, params);
      }),
    );
    const rows = pages
      .flat()
      .sort(newestFirst)
      .slice(0, options.limit + 1);
    const clientIds = new Map(partners.map((p) => [p.id, p.client_id]));
    const page = pageOf(rows, options.limit);
    return {
      nextBeforeSeq: page.nextBeforeSeq,
      orders: page.orders.map((o) => ({ ...o, clientId: clientIds.get(o.partnerId) ?? "" })),
    };
  }

  async findTenantOrder(tenantId: string, orderId: string): Promise<TenantOrderRecord | undefined> {
    const row = await this.#one<OrderRow & { client_id: string }>(`${TENANT_ORDERS} AND o.id = ?`, [
      tenantId,
      orderId,
    ]);
    return row && { ...toOrder(row), clientId: row.client_id };
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
