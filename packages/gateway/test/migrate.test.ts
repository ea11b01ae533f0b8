import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { createGateway } from "../src/gateway.js";
import { createLogger } from "../src/http/logger.js";
import { latestVersion, loadMigrations } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import { tempDir } from "./helpers.js";
import { runCaptured } from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migrateWithCli(url: string, cwd: string) {
  const { code, stdout, stderr } = await runCaptured(["migrate", "--db", url], {
    env: { GATEWAY_MASTER_KEY: undefined },
    cwd,
  });
  return { code, stdout, stderr };
}

describe.each(storeKinds)("orderline-gateway migrate (%s store)", (kind) => {
  it("brings an empty store to the newest schema, and a second run changes nothing", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    const first = await migrateWithCli(url, dir);
    expect(first).toMatchObject({
      code: 0,
      stdout: `Store is up to date (schema version ${latestVersion(kind)}).\n`,
      stderr: "",
    });
    expect((await migrateWithCli(url, dir)).code).toBe(0);
    const store = await openStore(url);
    cleanups.push(() => store.close());
    expect(await store.schemaVersion()).toBe(latestVersion(kind));
  });

  it("answers /ready with 503 while the store lacks a migration this build needs", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    const config = loadConfig({}, { databaseUrl: url, dataDir: dir });
    const store = await openStore(url);
    cleanups.push(() => store.close());
    const latest = latestVersion(kind);
    const previous = loadMigrations(kind).at(-2)?.version;
    const gw = await createGateway({ config, store, logger: createLogger("silent") });
    cleanups.push(() => gw.close());
    // Make the store look one migration behind what this build expects.
    const sql = `DELETE FROM schema_migrations WHERE version = ${latest}`;
    if (kind === "postgres") {
      await (store as unknown as { pool: { query(q: string): Promise<unknown> } }).pool.query(sql);
    } else {
      const { default: Database } = await import("better-sqlite3");
      const db = new Database(config.databaseUrl.slice("sqlite:".length));
      db.exec(sql);
      db.close();
    }
    const ready = await gw.app.inject({ method: "GET", url: "/ready" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: "unavailable",
      schema_version: previous,
      expected_schema_version: latest,
    });
  });
});

describe("a PostgreSQL store that cannot be opened", () => {
  it("fails migrate with the server named and the password masked", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const result = await migrateWithCli("postgres://orderline:s3cret@127.0.0.1:1/orderline", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "Cannot open the PostgreSQL store postgres://orderline:***@127.0.0.1:1/orderline",
    );
    expect(result.stderr).not.toContain("s3cret");
  });
});
