import type pg from "pg";
import { loadMigrations } from "../migrations.js";

/** One cluster-wide advisory lock id ('ordl' in ASCII): migrations of every gateway serialize on it. */
const MIGRATION_LOCK = 0x6f72646c;

/**
 * Applies the pending PostgreSQL migrations. Gateway instances started together each call this;
 * the session advisory lock makes them take turns, so the first applies and the rest find
 * nothing to do. Each migration commits with its schema_migrations row, or not at all.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await client.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
      );
      const applied = new Set(
        (await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map(
          (r) => r.version,
        ),
      );
      for (const migration of loadMigrations("postgres")) {
        if (applied.has(migration.version)) continue;
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            [migration.version, migration.name, Date.now()],
          );
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(
            `Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`,
          );
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

export async function postgresSchemaVersion(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ v: number | null }>(
    "SELECT MAX(version) AS v FROM schema_migrations",
  );
  return rows[0]?.v ?? 0;
}
