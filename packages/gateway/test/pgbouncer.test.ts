/**
 * The gateway behind PgBouncer in transaction pooling mode (docs/deploy.md, "Behind PgBouncer"):
 * the PostgreSQL store's concurrency rules through the pooler, a leaked migration lock, and the
 * built gateway taking 200 signed creates from 8 connections with webhooks delivered.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { Agent, request } from "node:http";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";
import { latestVersion, loadMigrations } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import { isStoreOutage } from "../src/store/outage.js";
import type { NewSalesOrder, Store } from "../src/store/store.js";
import { order, rsaKeys, tempDir } from "./helpers.js";
import { havePgbouncer, type RunningPgbouncer, startPgbouncer } from "./support/pgbouncer.js";
import {
  CLI,
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  runCaptured,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { Receiver } from "./support/receiver.js";
import { PARTNER } from "./support/stores.js";

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databases: string[] = [];
/**
 * A new database (not a schema: PgBouncer 1.18 passes no `options` startup parameter, so no
 * search_path per connection); the name stores.ts's stale-database sweep knows.
 */
async function freshDatabase(): Promise<string> {
  const name = `orderline_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  databases.push(name);
  return name;
}
const direct = (database: string) => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LEAK_ALIAS = "orderline_leak";
let bouncer: RunningPgbouncer;
let leakDatabase: string;
const dir = tempDir();
beforeAll(async () => {
  if (!havePgbouncer) return;
  leakDatabase = await freshDatabase();
  bouncer = await startPgbouncer(dir.dir, { poolSize: 6, aliases: { [LEAK_ALIAS]: leakDatabase } });
});
afterAll(async () => {
  await bouncer?.stop();
  for (const name of databases)
    await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  dir.cleanup();
});

const newOrder = (overrides: Partial<NewSalesOrder> = {}): NewSalesOrder => ({
  id: newId(),
  partnerId: PARTNER.id,
  purchaseOrderNo: null,
  customerCode: "C",
  siteCode: "S",
  salesName: "N",
  address: "A",
  products: [{ product_code: "P", quantity: 1 }],
  status: "received",
  createdAt: Date.now(),
  ...overrides,
});

/** A store through PgBouncer, configured as docs/deploy.md says (GATEWAY_PG_POOLER=transaction). */
async function pooledStore(database: string): Promise<Store> {
  const store = await openStore(bouncer.through(direct(database)), {
    pgPooler: "transaction",
    poolMax: 8,
  });
  cleanups.push(() => store.close());
  return store;
}

describe.runIf(havePgbouncer)("the PostgreSQL store through PgBouncer (transaction mode)", () => {
  it("applies the migrations once when several instances start together", async () => {
    const database = await freshDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => pooledStore(database)));
    for (const store of stores) expect(await store.schemaVersion()).toBe(latestVersion("postgres"));
    const applied = await admin(async () => {
      const client = new pg.Client({ connectionString: direct(database) });
      await client.connect();
      try {
        return (await client.query("SELECT version FROM schema_migrations")).rowCount;
      } finally {
        await client.end();
      }
    });
    // Once each: as many rows as there are migrations (their numbers have gaps).
    expect(applied).toBe(loadMigrations("postgres").length);
  });

  it("creates concurrent batches with nonces, numbers each order once, and keeps idempotency and nonce races", async () => {
    const database = await freshDatabase();
    const [a, b] = await Promise.all([pooledStore(database), pooledStore(database)]);
    await a.createPartner(PARTNER);
    const expiresAt = Date.now() + 600_000;
    // Group commit on two instances at once: many batches share the pooled server sessions.
    const created = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        (i % 2 ? a : b).createOrder(newOrder(), undefined, { key: `n-${i}`, expiresAt }),
      ),
    );
    expect(created.filter((r) => r.kind === "created")).toHaveLength(400);
    const numbers = created.map((r) => (r.kind === "created" ? r.order.partnerSeq : 0));
    expect(new Set(numbers).size).toBe(400);
    expect(Math.max(...numbers)).toBe(400);
    // A nonce used twice at once: one wins, on either instance.
    const replays = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).createOrder(newOrder(), undefined, { key: "n-twice", expiresAt }),
      ),
    );
    expect(replays.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(replays.filter((r) => r.kind === "request_replayed")).toHaveLength(19);
    // One Idempotency-Key raced from both instances: one order, the rest replay it.
    const key = { key: "idem-1", requestHash: "h1" };
    const keyed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).createOrder(newOrder(), key)),
    );
    expect(keyed.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(keyed.filter((r) => r.kind === "replayed")).toHaveLength(19);
    // Nonce claims of other signed writes, batched on both instances.
    const claims = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).tenants.claimRequestNonce(`w-${i % 100}`, expiresAt),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(100);
  });

  it("named prepared statements through the pooler (GATEWAY_PG_POOLER unset) fail as store outages, never as defects", async () => {
    const database = await freshDatabase();
    const store = await openStore(bouncer.through(direct(database)), { poolMax: 8 });
    cleanups.push(() => store.close());
    await store.createPartner(PARTNER);
    const expiresAt = Date.now() + 600_000;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        store.createOrder(newOrder(), undefined, { key: `u-${i}`, expiresAt }),
      ),
    );
    for (const outcome of outcomes)
      if (outcome.status === "rejected") expect(isStoreOutage(outcome.reason)).toBe(true);
  });
});

describe.runIf(havePgbouncer)("a migration lock leaked into a PgBouncer session", () => {
  it("migrate and serve wait a bounded time, name the session holding it and exit 3; once it is ended they migrate", async () => {
    // A session-level lock taken through the pooler by a client that then goes away: PgBouncer
    // keeps the server session, and the lock with it (what an older release could leave).
    const leaker = new pg.Client({
      connectionString: bouncer.through(direct(LEAK_ALIAS)),
      application_name: "leaky-tool",
    });
    await leaker.connect();
    await leaker.query("SELECT pg_advisory_lock($1)", [0x6f72646c]);
    await leaker.end();

    const env = {
      DATABASE_URL: bouncer.through(direct(leakDatabase)),
      GATEWAY_PG_POOLER: "transaction",
      GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS: "2",
      GATEWAY_MASTER_KEY: "5e".repeat(32),
      GATEWAY_DATA_DIR: dir.dir,
      GATEWAY_METRICS_LISTEN: "off",
    };
    const attempt = (args: string[]) => runCaptured(args, { env, cwd: dir.dir });
    const holder = await admin(async (client) => {
      const { rows } = await client.query<{ pid: number }>(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1::oid AND granted",
        [0x6f72646c],
      );
      return rows[0]?.pid;
    });
    expect(holder).toBeTypeOf("number");
    for (const args of [["migrate"], ["serve", "--port", "0"]]) {
      const result = await attempt(args);
      expect(result.code, args[0]).toBe(3);
      expect(result.stdout, args[0]).not.toContain("listening on");
      expect(result.stderr, args[0]).toContain("GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS");
      expect(result.stderr, args[0]).toContain(`pid ${holder}`);
      expect(result.stderr, args[0]).toContain("leaky-tool");
      expect(result.stderr, args[0]).toContain(`pg_terminate_backend(${holder})`);
    }
    // What the line tells the operator to do, then migrate again.
    await admin((client) => client.query("SELECT pg_terminate_backend($1)", [holder]));
    const migrated = await attempt(["migrate"]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`schema version ${latestVersion("postgres")}`);
  });
});

/** POST over one of `agent`'s sockets; status and parsed body. */
function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: { code?: string; data?: { id: string } } }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": String(Buffer.byteLength(payload)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (c: Buffer) => chunks.push(c));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe.runIf(havePgbouncer)("the built gateway behind PgBouncer (transaction mode)", () => {
  it("answers 200 of 200 signed creates from 8 connections with 201, delivers every webhook, and logs no error", async () => {
    expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
    const receiver = await new Receiver().start();
    cleanups.push(() => receiver.stop());
    const env: ProcessEnv = {
      databaseUrl: bouncer.through(direct(await freshDatabase())),
      dataDir: dir.dir,
      extra: {
        GATEWAY_PG_POOLER: "transaction",
        GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
      },
    };
    await cli(env, ["migrate"]);
    const partner = await createPartnerWithCli(env, rsaKeys(), "Bouncer");
    await cli(env, [
      "webhooks",
      "add",
      partner.clientId,
      "--url",
      receiver.url,
      "--events",
      "order.created",
      "--json",
    ]);
    const gateway = await startProcess(env, 0, "info");
    cleanups.push(async () => {
      gateway.child.kill("SIGKILL");
      await gateway.exited;
    });
    // Written right after the line the start waits for.
    await expect.poll(() => gateway.stdout(), { timeout: 30_000 }).toContain('"event":"pg_pooler"');
    const token = await loginOver(gateway.url, partner);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    cleanups.push(() => agent.destroy());
    const createdAt = new Map<string, number>();
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const answer = await post(
          agent,
          `${gateway.url}/api/v1/sales-orders`,
          signedOver(partner, token),
          order({ purchase_order_no: `PO-PGB-${i}` }),
        );
        if (answer.body.data) createdAt.set(answer.body.data.id, Date.now());
        return answer;
      }),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(answers.find((a) => a.status !== 201)),
    ).toHaveLength(200);
    await receiver.until(
      (got) => new Set(got.map((r) => r.body.id)).size >= 200,
      "a delivery of each of the 200 orders",
    );
    const ids = new Set(receiver.received.map((r) => (r.body.data.order as { id: string }).id));
    expect([...createdAt.keys()].every((id) => ids.has(id))).toBe(true);
    // The slowest delivery, for the report (docs/deploy.md), not a bound the test holds.
    const slowest = Math.max(
      ...receiver.received.map(
        (r) => r.at - (createdAt.get((r.body.data.order as { id: string }).id) ?? r.at),
      ),
    );
    console.log(`pgbouncer: slowest webhook delivery ${slowest} ms after its 201`);
    const errors = gateway
      .stdout()
      .split("\n")
      .filter(
        (line) => line.startsWith("{") && (JSON.parse(line) as { level: number }).level >= 50,
      );
    expect(errors).toEqual([]);
  });
});
