import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { tempDir } from "./helpers.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("webhook claims on SQLite", () => {
  it("find nothing due without waiting for the write lock another connection holds", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const path = join(dir, "store.db");
    const store = new SqliteStore(path);
    cleanups.push(() => store.close());
    await store.migrate();
    // As the order writer thread holds it through a batch and its commit.
    const writer = new Database(path);
    cleanups.push(() => writer.close());
    writer.prepare("BEGIN IMMEDIATE").run();
    cleanups.push(() => writer.prepare("ROLLBACK").run());

    const now = Date.now();
    // Waiting for the lock would end in SQLITE_BUSY after the store's busy timeout.
    expect(await store.webhooks.claimDeliveries(now, now + 60_000, "lease", 8)).toEqual([]);
  });
});
