/**
 * An idle gateway on PostgreSQL stays idle: the webhook worker's own rounds write no
 * rows, so they must wake no one. A notification for a statement that wrote nothing made every
 * round wake the worker again, and an instance with no work ran hundreds of transactions a
 * second, taking the database and CPU its orders needed.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Transactions committed in the database of `url` so far (statistics flush within ~1 s). */
async function commits(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_stat_clear_snapshot()");
    const { rows } = await client.query<{ n: string }>(
      "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()",
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(storeKinds.includes("postgres"))("an idle instance on PostgreSQL", () => {
  it("runs a few worker rounds a second, not a loop that wakes itself", async () => {
    const gw = await startGateway({
      store: "postgres",
      config: { webhooks: { ...loadConfig({}).webhooks, pollMs: 200 } },
    });
    cleanups.push(() => gw.close());
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const url = gw.config.databaseUrl;
    await sleep(1_500);
    const before = await commits(url);
    await sleep(3_000);
    const after = await commits(url);
    // Polling every 200 ms is about 15 rounds of two statements in 3 s (plus these reads and
    // the statistics' own delay); a round that wakes the next ran several hundred a second.
    expect(after - before).toBeLessThan(120);
  });
});
