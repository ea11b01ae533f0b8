import type pg from "pg";
import { loadMigrations } from "../migrations.js";
import { withClient } from "./pool.js";

/** One cluster-wide advisory lock id ('ordl' in ASCII): migrations of every gateway serialize on it. */
const MIGRATION_LOCK = 0x6f72646c;

/**
 * Migration statements may take long (an index on a large table): the pool's statement and
 * query timeouts, which bound requests, are lifted for them. The largest delay a timer takes.
 */
const UNBOUNDED_MS = 2 ** 31 - 1;

const DEFAULT_MIGRATION_LOCK_WAIT_SECONDS = 300;
/** How often a waiting migrate tries the lock again, and how often it says who holds it. */
const RETRY_MS = 500;
const REPORT_EVERY_MS = 10_000;

/** The migration lock stayed taken for the whole wait: nothing was migrated. */
export class MigrationLockedError extends Error {
  override name = "MigrationLockedError";
}

export interface MigrateOptions {
  /** How long to wait for a migration lock another session holds (GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS). */
  lockWaitSeconds?: number;
  /** Told every 10 s of waiting who holds the lock. */
  onWait?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies the pending PostgreSQL migrations, each in a transaction of its own that first takes
 * the migration lock as a transaction-level advisory lock: the lock ends with the transaction
 * whatever happens to the session, so a transaction pooler (PgBouncer), which hands the server
 * session on after every transaction, can neither lose it nor keep it. Gateway instances
 * started together take turns: each migration commits with its schema_migrations row, or not
 * at all, and whoever comes next finds it applied. A lock held elsewhere (another instance
 * migrating, or a session lock an older release leaked into a pooler's session) is waited for
 * at most `lockWaitSeconds`, then MigrationLockedError names the session holding it.
 */
export async function migratePostgres(pool: pg.Pool, options: MigrateOptions = {}): Promise<void> {
  const waitMs = (options.lockWaitSeconds ?? DEFAULT_MIGRATION_LOCK_WAIT_SECONDS) * 1000;
  let waitingSince: number | undefined;
  let reportedAt = 0;
  for (;;) {
    const step = await withClient(pool, applyNext);
    if (step === "done") return;
    if (step === "applied") {
      waitingSince = undefined;
      continue;
    }
    const now = Date.now();
    waitingSince ??= now;
    if (now - waitingSince >= waitMs) {
      const holder = await lockHolder(pool).catch(() => undefined);
      throw new MigrationLockedError(
        `The migration lock (advisory lock ${MIGRATION_LOCK}) stayed taken for ${Math.round(waitMs / 1000)} s (GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS); nothing was migrated. ${holderText(holder)}`,
      );
    }
    if (options.onWait && now - reportedAt >= REPORT_EVERY_MS) {
      reportedAt = now;
      const holder = await lockHolder(pool).catch(() => undefined);
      options.onWait(
        `waiting for the migration lock (up to ${Math.round(waitMs / 1000)} s). ${holderText(holder)}`,
      );
    }
    await sleep(RETRY_MS);
  }
}

/** One pending migration under the lock: "applied", "done" (none pending) or "locked". */
async function applyNext(client: pg.PoolClient): Promise<"applied" | "done" | "locked"> {
  const query = (text: string, values?: unknown[]) =>
    client.query({ text, values, query_timeout: UNBOUNDED_MS } as pg.QueryConfig);
  await query("BEGIN");
  try {
    await query("SET LOCAL statement_timeout = 0");
    const { rows } = await query("SELECT pg_try_advisory_xact_lock($1) AS locked", [
      MIGRATION_LOCK,
    ]);
    if (rows[0]?.locked !== true) {
      await query("ROLLBACK");
      return "locked";
    }
    await query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    const applied = new Set(
      (await query("SELECT version FROM schema_migrations")).rows.map(
        (r: { version: number }) => r.version,
      ),
    );
    const next = loadMigrations("postgres").find((m) => !applied.has(m.version));
    if (next === undefined) {
      await query("COMMIT");
      return "done";
    }
    try {
      await query(next.sql);
    } catch (error) {
      throw new Error(
        `Migration ${next.version}_${next.name} failed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    await query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [
      next.version,
      next.name,
      Date.now(),
    ]);
    await query("COMMIT");
    return "applied";
  } catch (error) {
    await query("ROLLBACK").catch(() => {});
    throw error;
  }
}

interface LockHolder {
  pid: number;
  application_name: string | null;
  client_addr: string | null;
  state: string | null;
  state_change: Date | null;
  query: string | null;
}

/** The session holding the migration lock in this database, as pg_stat_activity sees it. */
async function lockHolder(pool: pg.Pool): Promise<LockHolder | undefined> {
  const { rows } = await pool.query<LockHolder>(
    `SELECT l.pid, a.application_name, host(a.client_addr) AS client_addr, a.state,
            a.state_change, left(a.query, 200) AS query
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1::oid
        AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      LIMIT 1`,
    [MIGRATION_LOCK],
  );
  return rows[0];
}

function holderText(holder: LockHolder | undefined): string {
  if (holder === undefined) return "Who held it could not be read (it may have just been freed).";
  const since = holder.state_change ? ` since ${holder.state_change.toISOString()}` : "";
  const what = [
    `application_name '${holder.application_name ?? ""}'`,
    `client ${holder.client_addr ?? "local socket"}`,
    `state ${holder.state ?? "unknown"}${since}`,
    `last query: ${JSON.stringify(holder.query ?? "")}`,
  ].join(", ");
  return `Held by PostgreSQL session pid ${holder.pid} (${what}). State active: another gateway is migrating, let it finish. State idle: a session that no longer migrates keeps the lock (leaked, e.g. kept open by PgBouncer); end it with SELECT pg_terminate_backend(${holder.pid}) and start again.`;
}

export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ v: number | null }>(
    "SELECT MAX(version) AS v FROM schema_migrations",
  );
  return rows[0]?.v ?? 0;
}
