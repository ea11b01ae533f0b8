import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createNonceWriter } from "../src/store/sqlite/nonce-writer.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { tempDir } from "./helpers.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function storePath(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, "store.db");
}

describe("replay-guard nonces on SQLite (batched)", () => {
  it("claims a nonce once, also when claims of one turn share a batch, and keeps it across a reopen", async () => {
    const path = storePath();
    const store = new SqliteStore(path);
    await store.migrate();
    const expiresAt = Date.now() + 60_000;
    const [first, again, other] = await Promise.all([
      store.tenants.claimRequestNonce("n-1", expiresAt),
      store.tenants.claimRequestNonce("n-1", expiresAt),
      store.tenants.claimRequestNonce("n-2", expiresAt),
    ]);
    expect([first, again, other]).toEqual([true, false, true]);
    await store.close();

    const reopened = new SqliteStore(path);
    cleanups.push(() => reopened.close());
    expect(await reopened.tenants.claimRequestNonce("n-1", expiresAt)).toBe(false);
    expect(await reopened.tenants.claimRequestNonce("n-3", expiresAt)).toBe(true);
  });

  it("gives the connection its synchronous setting back after each batch, also when one fails", async () => {
    const path = storePath();
    const store = new SqliteStore(path);
    await store.migrate();
    await store.close();
    const db = new Database(path);
    cleanups.push(() => db.close());
    db.pragma("synchronous = FULL");
    const claim = createNonceWriter(db);
    expect(claim([{ key: "k", expiresAt: 1 }])).toEqual([true]);
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
    db.exec("DROP TABLE request_nonces");
    const broken = createNonceWriter(db);
    expect(() => broken([{ key: "k", expiresAt: 1 }])).toThrow(/request_nonces/);
    expect(db.pragma("synchronous", { simple: true })).toBe(2);
  });
});
