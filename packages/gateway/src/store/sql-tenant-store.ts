import {
  type ListDialect,
  type ListWindow,
  newestFirst,
  oldestFirst,
  partnerOrdersStatement,
  type Statement,
} from "./order-moves.js";
import {
  COUNT_CAP,
  countStatement,
  searchStatement,
  textContains,
  windowFloorStatement,
} from "./order-search.js";
import { type OrderRow, toOrder } from "./rows.js";
import type { StatementResult } from "./sql-runner.js";
import type {
  ExpiringTable,
  LoginFailures,
  OrderCount,
  OverridesRecord,
  TenantListOptions,
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
  password_links: { key: "token_hash", time: "expires_at" },
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
  disabled_at: number | null;
  last_sign_in_at: number | null;
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
  disabledAt: r.disabled_at,
  lastSignInAt: r.last_sign_in_at,
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
  "SELECT o.*, p.client_id AS client_id, p.name AS partner_name FROM sales_orders o JOIN partners p ON p.id = o.partner_id WHERE p.tenant_id = ?";

export abstract class SqlTenantStore implements TenantStore {
  /** How this dialect words the listing statements (partnerOrdersStatement). */
  constructor(private readonly listDialect: ListDialect = {}) {}

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

  /** Each dialect claims nonces in batches of its own (sqlite/nonce-writer, postgres/nonce-batch). */
  abstract claimRequestNonce(key: string, expiresAt: number): Promise<boolean>;

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

  /** Reads of a tenant's listed partners in flight, by tenant and named partner. */
  readonly #partnersReading = new Map<string, Promise<ListedPartner[]>>();

  /**
   * The tenant's partners a listing reads: all, or the one it names. A listing's page and its
   * count ask at once: they share one read (in flight only, nothing is kept after it).
   */
  #listedPartners(tenantId: string, clientId: string | undefined): Promise<ListedPartner[]> {
    const key = `${tenantId}\u0000${clientId ?? ""}`;
    let reading = this.#partnersReading.get(key);
    if (reading === undefined) {
      reading = this.rows<ListedPartner>(
        `SELECT id, client_id, name FROM partners WHERE tenant_id = ?${clientId === undefined ? "" : " AND client_id = ?"}`,
        clientId === undefined ? [tenantId] : [tenantId, clientId],
      ).finally(() => this.#partnersReading.delete(key));
      this.#partnersReading.set(key, reading);
    }
    return reading;
  }

  /**
   * One partner's part of a page: its plain listing range when it has no search or the search
   * names the partner itself; else its bounded search, with the window's last order when the
   * window was full (nothing beyond it was looked at).
   */
  async #partnerPage(
    partner: ListedPartner,
    options: TenantListOptions,
  ): Promise<{ rows: OrderRow[]; floor?: { seq: number; created_at: number } }> {
    const q = searchOf(partner, options.q);
    if (q === undefined) {
      const { sql, params } = partnerOrdersStatement(partner.id, options, this.listDialect);
      return { rows: await this.listRows<OrderRow>(sql, params) };
    }
    const search = searchStatement(partner.id, q, options, this.listDialect);
    const floor = windowFloorStatement(partner.id, options, this.listDialect);
    const [rows, [last]] = await Promise.all([
      this.listRows<OrderRow>(search.sql, search.params),
      this.listRows<{ seq: number; created_at: number }>(floor.sql, floor.params),
    ]);
    return last
      ? { rows, floor: { seq: Number(last.seq), created_at: Number(last.created_at) } }
      : { rows };
  }

  /**
   * Each partner's page (an index range of at most `limit + 1` rows, partnerOrdersStatement,
   * or a bounded search of it) merged in listing order: bounded by the tenant's partners times
   * the page (or the search window), never by its orders.
   */
  async listTenantOrders(tenantId: string, options: TenantListOptions): Promise<TenantOrderPage> {
    const partners = await this.#listedPartners(tenantId, options.clientId);
    const parts = await Promise.all(partners.map((p) => this.#partnerPage(p, options)));
    const order = options.oldestFirst ? oldestFirst : newestFirst;
    // Past the nearest floor, some partner's orders were not looked at: the page stops there.
    const [cut] = parts.flatMap((p) => (p.floor ? [p.floor] : [])).sort(order);
    const rows = parts
      .flatMap((p) => p.rows)
      .sort(order)
      .filter((row) => cut === undefined || order(row, cut) <= 0);
    const shown = rows.slice(0, options.limit);
    const last = shown.at(-1);
    const nextBeforeSeq =
      rows.length > options.limit && last ? last.seq : cut === undefined ? null : cut.seq;
    const byId = new Map(partners.map((p) => [p.id, p]));
    return {
      nextBeforeSeq,
      orders: shown.map((row) => {
        const partner = byId.get(row.partner_id);
        return {
          ...toOrder(row),
          clientId: partner?.client_id ?? "",
          partnerName: partner?.name ?? "",
        };
      }),
    };
  }

  async countTenantOrders(tenantId: string, options: TenantListOptions): Promise<OrderCount> {
    const { beforeSeq: _cursor, ...top } = options;
    const partners = await this.#listedPartners(tenantId, options.clientId);
    const searches = partners.map((partner) => ({ partner, q: searchOf(partner, options.q) }));
    const [plain, counts] = await Promise.all([
      this.#countPlain(
        searches.flatMap(({ partner, q }) => (q === undefined ? [partner] : [])),
        top,
      ),
      Promise.all(
        searches.flatMap(({ partner, q }) =>
          q === undefined ? [] : [this.#countSearched(partner, q, top)],
        ),
      ),
    ]);
    const count = counts.reduce((sum, c) => sum + c.n, plain);
    return {
      count: Math.min(count, COUNT_CAP),
      exact: count <= COUNT_CAP && counts.every((c) => c.exact),
    };
  }

  /**
   * The unsearched partners' orders, counted one partner after another against one budget of
   * COUNT_CAP + 1 index entries for the whole tenant: the count's cost is bounded by the cap,
   * not by the cap times the tenant's partners.
   */
  async #countPlain(partners: ListedPartner[], options: ListWindow): Promise<number> {
    let counted = 0;
    for (const partner of partners) {
      const budget = COUNT_CAP + 1 - counted;
      if (budget <= 0) break;
      const { sql, params } = countStatement(
        partner.id,
        undefined,
        options,
        this.listDialect,
        budget,
      );
      const [row] = await this.listRows<{ n: number | string }>(sql, params);
      counted += Number(row?.n ?? 0);
    }
    return counted;
  }

  /** A search counts within its window: exact only when the window held every order. */
  async #countSearched(
    partner: ListedPartner,
    q: string,
    options: ListWindow,
  ): Promise<{ n: number; exact: boolean }> {
    const { sql, params } = countStatement(partner.id, q, options, this.listDialect);
    const [row] = await this.listRows<{ n: number | string }>(sql, params);
    const floor = windowFloorStatement(partner.id, options, this.listDialect);
    const full = (await this.listRows(floor.sql, floor.params)).length > 0;
    return { n: Number(row?.n ?? 0), exact: !full };
  }

  async findTenantOrder(tenantId: string, orderId: string): Promise<TenantOrderRecord | undefined> {
    const row = await this.#one<OrderRow & { client_id: string; partner_name: string }>(
      `${TENANT_ORDERS} AND o.id = ?`,
      [tenantId, orderId],
    );
    return row && { ...toOrder(row), clientId: row.client_id, partnerName: row.partner_name };
  }
}

interface ListedPartner {
  id: string;
  client_id: string;
  name: string;
}

/** The text a partner's orders are searched for: none when there is no search or the partner itself matches. */
const searchOf = (partner: ListedPartner, q: string | undefined): string | undefined =>
  q === undefined || textContains(partner.name, q) || textContains(partner.client_id, q)
    ? undefined
    : q;

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
