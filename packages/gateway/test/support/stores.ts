/**
 * Fresh stores of each kind for the tests, so a suite runs over both with
 * `describe.each(storeKinds)("… (%s)", (kind) => …)`.
 *
 * - sqlite: a file in a temp dir.
 * - postgres: each test file gets its own database `orderline_test_<time>_<random>` on the server
 *   TEST_DATABASE_URL names (default postgres://postgres@127.0.0.1:5432/postgres), dropped after
 *   the file; each fresh store inside it is a fresh schema, so tests do not see each other.
 *
 * When the server does not answer, PostgreSQL is skipped with a loud warning, but only outside
 * CI: with CI set the tests fail instead, so CI never passes without having run them.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { afterEachFile } from "./file-scope.js";

export type StoreKind = "sqlite" | "postgres";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** Databases a crashed run left behind are dropped by a later run after this long. */
const STALE_AFTER_SECONDS = 6 * 60 * 60;

async function serverAnswers(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const unreachable = await serverAnswers();
if (unreachable !== undefined) {
  const message = `PostgreSQL at ${SERVER_URL} does not answer (${unreachable}).`;
  if (process.env.CI) throw new Error(`${message} CI runs every test on PostgreSQL too.`);
  console.warn(
    `\n!!! ${message}\n!!! SKIPPING every PostgreSQL test of this worker's files. Start the server ` +
      "(pg_ctlcluster 15 main start) or set TEST_DATABASE_URL; CI never skips them.\n",
  );
}

/** The store kinds this run covers: both, unless PostgreSQL is down outside CI. */
export const storeKinds: readonly StoreKind[] =
  unreachable === undefined ? ["sqlite", "postgres"] : ["sqlite"];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let database: Promise<string> | undefined;

/** This test file's database, created on first use. */
function fileDatabase(): Promise<string> {
  database ??= admin(async (client) => {
    const now = Math.floor(Date.now() / 1000);
    const stale = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'orderline\\_test\\_%'",
    );
    for (const { datname } of stale.rows) {
      const created = Number(datname.split("_")[2]);
      if (Number.isFinite(created) && now - created > STALE_AFTER_SECONDS)
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
    }
    const name = `orderline_test_${now}_${randomBytes(4).toString("hex")}`;
    await client.query(`CREATE DATABASE "${name}"`);
    return name;
  });
  return database;
}

// The next file (in this worker, when files share modules) creates its own database.
afterEachFile(async () => {
  if (database === undefined) return;
  const name = await database;
  database = undefined;
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

/** The URL of a PostgreSQL database (this file's) that no other test uses. */
export async function freshPostgresUrl(): Promise<string> {
  const name = await fileDatabase();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The DATABASE_URL of an empty store of `kind`. For SQLite a file under `dir`; for PostgreSQL
 * a new schema in this file's database, selected through the connection's search_path.
 */
export async function freshDatabaseUrl(kind: StoreKind, dir: string): Promise<string> {
  if (kind === "sqlite") return `sqlite:${join(dir, "gateway.db")}`;
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const url = new URL(await freshPostgresUrl());
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/** A migrated, empty store of `kind` (close it when done). */
export async function freshStore(kind: StoreKind, dir: string): Promise<Store> {
  return openStore(await freshDatabaseUrl(kind, dir));
}

/** A partner record for store-level tests (`store.createPartner(PARTNER)`). */
export const PARTNER = {
  id: "partner-1",
  clientId: "olc_one",
  name: "One",
  secretHash: "x",
  secretVersion: 1,
  status: "active" as const,
  createdAt: 0,
  updatedAt: 0,
  previousSecretHash: null,
  previousSecretUntil: null,
};
