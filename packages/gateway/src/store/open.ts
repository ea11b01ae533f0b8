import { type SqliteSynchronous, sqlitePathOf } from "../config.js";
import { isPostgresUrl } from "./postgres/pool.js";
import { PostgresStore } from "./postgres/postgres-store.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { Store } from "./store.js";

export interface OpenStoreOptions {
  synchronous?: SqliteSynchronous;
  /** PostgreSQL connections per process. */
  poolMax?: number;
}

/** Opens (and migrates) the store a DATABASE_URL names: `postgres://…`, `sqlite:…` or a path. */
export async function openStore(
  databaseUrl: string,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const store = isPostgresUrl(databaseUrl)
    ? new PostgresStore(databaseUrl, options.poolMax === undefined ? {} : { max: options.poolMax })
    : new SqliteStore(sqlitePathOf(databaseUrl), options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
