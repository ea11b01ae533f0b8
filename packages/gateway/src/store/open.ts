import { existsSync } from "node:fs";
import { type SqliteSynchronous, sqlitePathOf } from "../config/config.js";
import { isPostgresUrl, redactedUrl } from "../lib/database-url.js";
import { latestVersion } from "./migrations.js";
import { MigrationLockedError } from "./postgres/migrate.js";
import type { Pooler } from "./postgres/pool.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export interface OpenStoreOptions {
  synchronous?: SqliteSynchronous;
  /** PostgreSQL connections per process. */
  poolMax?: number;
  /** PostgreSQL statement and connection bounds (config.bounds). */
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** PostgreSQL: the pooler in front (GATEWAY_PG_POOLER) and the migration lock's bound. */
  pgPooler?: Pooler;
  migrationLockWaitSeconds?: number;
  /** Told while migrate waits for the migration lock, who holds it. */
  onMigrationLockWait?: (message: string) => void;
  /** SQLite reader threads and their nice value (config.lists; default from the cores, 10). */
  readerThreads?: { size: number; nice: number };
  /**
   * True (default): create the store when it does not exist and apply pending migrations, what
   * `serve` and `migrate` do. False: open an existing store at the schema this build needs, or
   * refuse with a StoreUnavailableError, so a mistyped path never yields a new empty store.
   */
  create?: boolean;
}

/** The store is missing, not an Orderline store, or at another schema version. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  constructor(
    readonly code: "store_missing" | "store_outdated" | "store_newer" | "migration_locked",
    message: string,
  ) {
    super(message);
  }
}

const whereOf = (databaseUrl: string): string =>
  isPostgresUrl(databaseUrl) ? redactedUrl(databaseUrl) : sqlitePathOf(databaseUrl);

const migrateHint = (where: string): string =>
  `To create or upgrade the store there, run: orderline-gateway migrate --db '${where}'`;

/**
 * Refuses a SQLite file that does not exist, without opening anything: what a command checks
 * before it asks for input it would then have to throw away. (A database server is checked
 * when opened.)
 */
export function assertStoreFileExists(databaseUrl: string): void {
  const where = whereOf(databaseUrl);
  if (!isPostgresUrl(databaseUrl) && !existsSync(where)) {
    throw new StoreUnavailableError(
      "store_missing",
      `No store at ${where}. Check --db or DATABASE_URL. ${migrateHint(where)}`,
    );
  }
}

/** Opens the store a DATABASE_URL names: `postgres://…`, `sqlite:…` or a path. */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const create = options.create ?? true;
  const where = whereOf(databaseUrl);
  if (!create) assertStoreFileExists(databaseUrl);
  const store = isPostgresUrl(databaseUrl)
    ? new PostgresStore(databaseUrl, {
        max: options.poolMax,
        statementTimeoutMs: options.statementTimeoutMs,
        connectTimeoutMs: options.connectTimeoutMs,
        pooler: options.pgPooler,
        migrationLockWaitSeconds: options.migrationLockWaitSeconds,
        onMigrationLockWait: options.onMigrationLockWait,
      })
    : new SqliteStore(where, {
        ...options,
        readerThreads: options.readerThreads ?? true,
      });
  try {
    if (create) {
      await store.migrate();
      await assertNotNewer(store, where);
    } else await assertCurrent(store, where, migrateHint(where));
  } catch (error) {
    await store.close();
    // Another session holds the migration lock past its bound: no usable store (exit 3).
    if (error instanceof MigrationLockedError)
      throw new StoreUnavailableError("migration_locked", error.message);
    throw error;
  }
  return store;
}

async function assertCurrent(store: Store, where: string, migrateHint: string): Promise<void> {
  let version: number;
  try {
    version = await store.schemaVersion();
  } catch (error) {
    const message = (error as Error).message;
    // No schema_migrations table: a database (or file) that is not an Orderline store.
    if (/schema_migrations/.test(message))
      throw new StoreUnavailableError(
        "store_missing",
        `${where} holds no Orderline store. ${migrateHint}`,
      );
    throw new StoreUnavailableError("store_missing", `Cannot open the store ${where}: ${message}`);
  }
  const latest = latestVersion(store.kind === "postgres" ? "postgres" : "sqlite");
  if (version < latest)
    throw new StoreUnavailableError(
      "store_outdated",
      `The store ${where} has schema version ${version}; this build needs ${latest}. ${migrateHint}`,
    );
  if (version > latest) throw newerStore(where, version, latest);
}

/**
 * A build must not serve (nor migrate) a store a newer build has upgraded: it would accept
 * orders into tables whose rules it does not know. Rolling back means restoring the backup
 * taken before the upgrade (docs/deploy.md, "Rolling back").
 */
async function assertNotNewer(store: Store, where: string): Promise<void> {
  const version = await store.schemaVersion();
  const latest = latestVersion(store.kind === "postgres" ? "postgres" : "sqlite");
  if (version > latest) throw newerStore(where, version, latest);
}

const newerStore = (where: string, version: number, latest: number) =>
  new StoreUnavailableError(
    "store_newer",
    `The store ${where} has schema version ${version}, newer than this build knows (${latest}); run the orderline-gateway release that upgraded it, or restore the backup taken before the upgrade.`,
  );
