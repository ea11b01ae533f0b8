import type pg from "pg";
import { loadMigrations } from "../migrations.js";
import { withClient } from "./pool.js";

/** One cluster-wide advisory lock id ('ordl' in ASCII): migrations of every gateway serialize on it. */
const MIGRATION_LOCK = 0x6f72646c;

/**
 * Migration statements and the wait for another instance's migrations may take long (an index
 * on a large table): the pool's statement and query timeouts, which bound requests, are lifted
 * for them. The largest delay a timer takes.
 */
const UNBOUNDED_MS = 2 ** 31 - 1;

/**
 * Applies the pending PostgreSQL migrations. Gateway instances started together each call this;
 * the session advisory lock makes them take turns, so the first applies and the rest find
 * nothing to do. Each migration commits with its schema_migrations row, or not at all.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  await withClient(pool, async (client) => {
    const query = (text: string, values?: unknown[]) =>
      client.query({ text, values, query_timeout: UNBOUNDED_MS } as pg.QueryConfig);
    await query("SET statement_timeout = 0");
    await query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    let failure: unknown;
    try {
      await query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
      );
      const applied = new Set(
        (await query("SELECT version FROM schema_migrations")).rows.map(
          (r: { version: number }) => r.version,
        ),
      );
      for (const migration of loadMigrations("postgres")) {
        if (applied.has(migration.version)) continue;
        await query("BEGIN");
        try {
          await query(migration.sql);
          await query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            [migration.version, migration.name, Date.now()],
          );
          await query("COMMIT");
        } catch (error) {
          await query("ROLLBACK").catch(() => {});
          throw new Error(
            `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
    } catch (error) {
      failure = error;
    }
    // A failed unlock must not hide the migration's own error. Thrown after a success, it
    // makes withClient destroy the session, which frees the lock too.
    const unlockFailure = await query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).then(
      () => undefined,
      (error: unknown) => error ?? new Error("pg_advisory_unlock failed"),
    );
    if (failure !== undefined) throw failure;
    if (unlockFailure !== undefined) throw unlockFailure;
    // Back to the pool's bounds for whoever borrows this connection next.
    await query("RESET statement_timeout");
  });
}

export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ v: number | null }>(
    "SELECT MAX(version) AS v FROM schema_migrations",
  );
  return rows[0]?.v ?? 0;
}
