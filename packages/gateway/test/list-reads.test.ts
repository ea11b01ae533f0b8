/**
 * Listings read apart from creation: on SQLite on reader threads with read-only
 * connections over WAL, and on both stores through a bounded number of listing slots. Over real
 * sockets, on real SQLite files and a real PostgreSQL database.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { ListSlots, ListsBusy } from "../src/domain/orders/list-slots.js";
import { createGateway, type Gateway } from "../src/gateway.js";
import { createLogger } from "../src/http/logger.js";
import { StoreOutageError } from "../src/store/outage.js";
import { ReaderThreads } from "../src/store/sqlite/reader-threads.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { OrderFilter, OrderPage } from "../src/store/store.js";
import {
  createPartner,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

/** Seconds of one core in SQLite, with no table: a stuck listing, to a reader thread. */
const SLOW_READ =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) AS n FROM c";

/** The real SQLite store, whose listing first runs a slow read on its reader threads when asked. */
class SlowListingStore extends SqliteStore {
  slow = false;
  /** While set, listings wait for it first (holding their slot). */
  gate: Promise<void> | undefined;

  override async listOrders(
    partnerId: string,
    options: { limit: number; beforeSeq?: number; filter?: OrderFilter },
  ): Promise<OrderPage> {
    if (this.slow) await this.reads?.rows(SLOW_READ, []);
    if (this.gate) await this.gate;
    return super.listOrders(partnerId, options);
  }
}

/** A gateway over `store` (closed by the caller), listening on a socket. */
async function gatewayOver(
  store: SqliteStore,
  dir: string,
  lists: { concurrency: number; maxWaitMs: number; nice: number },
): Promise<{ gw: Gateway; base: string }> {
  await store.migrate();
  const config = loadConfig(
    { GATEWAY_MASTER_KEY: undefined },
    // The slow reads here take seconds on a busy machine: the request deadline is not tested.
    {
      databaseUrl: `sqlite:${store.path}`,
      dataDir: dir,
      drainSeconds: 0,
      requestTimeoutMs: 60_000,
      lists,
    },
  );
  const gw = await createGateway({ config, store, logger: createLogger("silent") });
  return { gw, base: await gw.app.listen({ port: 0, host: "127.0.0.1" }) };
}

async function createOver(base: string, partner: TestPartner, token: string, po: string) {
  const response = await fetch(`${base}/api/v1/sales-orders`, {
    method: "POST",
    headers: {
      ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
      "content-type": "application/json",
    },
    body: JSON.stringify(order({ purchase_order_no: po })),
  });
  return {
    status: response.status,
    body: ((await response.json()) as { data: { id: string } }).data,
  };
}

function listOver(base: string, partner: TestPartner, token: string, query = "") {
  return fetch(`${base}/api/v1/sales-orders?limit=5${query}`, {
    headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
  });
}

describe("SQLite listings on reader threads", () => {
  let gw: Gateway & { dir: string };
  let base: string;

  beforeAll(async () => {
    // Slots that never refuse here: this is about what a read sees, not how many run.
    gw = await startGateway({
      config: { users: TEST_USERS_CONFIG, lists: { concurrency: 2, maxWaitMs: 60_000, nice: 10 } },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("lists an order right after its 201, partner and tenant, read on the reader threads", async () => {
    const tenant = await createTenant(gw, "Read Your Writes");
    const partner = await tenantPartner(gw, tenant.id, "Writer");
    const token = await login(gw, partner);
    const user = await userToken(gw, tenant.member.email);
    // Creates and listings interleave on several connections: each listing follows its own 201.
    await Promise.all(
      Array.from({ length: 6 }, async (_, lane) => {
        for (let i = 0; i < 4; i++) {
          const created = await createOver(base, partner, token, `RYW-${lane}-${i}`);
          expect(created.status).toBe(201);
          const own = await listOver(base, partner, token, `&purchase_order_no=RYW-${lane}-${i}`);
          expect(own.status).toBe(200);
          expect(((await own.json()) as { data: { id: string }[] }).data.map((o) => o.id)).toEqual([
            created.body.id,
          ]);
          const desk = await fetch(`${base}/v1/orders?limit=100&q=RYW-${lane}-${i}`, {
            headers: { authorization: `Bearer ${user}` },
          });
          const ids = ((await desk.json()) as { data: { id: string }[] }).data.map((o) => o.id);
          expect(ids).toContain(created.body.id);
        }
      }),
    );
    const store = gw.store as unknown as { reads?: ReaderThreads };
    expect(store.reads?.threads ?? 0).toBeGreaterThan(0);
  });
});

describe("a stuck or failed SQLite reader thread", () => {
  const { dir, cleanup } = tempDir();
  let store: SlowListingStore;
  let gw: Gateway;
  let base: string;
  let partner: TestPartner;
  let token: string;

  beforeAll(async () => {
    store = new SlowListingStore(join(dir, "stuck.db"), { readerThreads: { timeoutMs: 1_500 } });
    ({ gw, base } = await gatewayOver(store, dir, { concurrency: 1, maxWaitMs: 2_000, nice: 10 }));
    partner = await createPartner(gw);
    token = await login(gw, partner);
  });
  afterAll(async () => {
    await gw?.close();
    await store?.close();
    cleanup();
  });

  it("answers 503 store_unavailable in its time, then lists again on a new thread", async () => {
    expect((await createOver(base, partner, token, "STUCK-1")).status).toBe(201);
    store.slow = true;
    const started = performance.now();
    const stuck = await listOver(base, partner, token);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(stuck.status).toBe(503);
    expect(stuck.headers.get("content-type")).toContain("application/problem+json");
    expect(((await stuck.json()) as { code: string }).code).toBe("store_unavailable");
    expect(Number(stuck.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    store.slow = false;
    const after = await listOver(base, partner, token);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it("refuses reads as an outage when a thread cannot open the store, and the process lives", async () => {
    const readers = new ReaderThreads(join(dir, "missing", "nowhere.db"), { size: 1 });
    try {
      for (let i = 0; i < 3; i++)
        await expect(readers.rows("SELECT 1", [])).rejects.toBeInstanceOf(StoreOutageError);
    } finally {
      await readers.close();
    }
  });

  it.runIf(process.platform === "linux")(
    "reads at the lowered CPU priority it was given, on threads of its own",
    async () => {
      // Only threads started by this pool count: others of the process (a gateway's readers
      // from another test, still closing) may run at any priority.
      const before = new Set(readdirSync("/proc/self/task"));
      const readers = new ReaderThreads(store.path, { size: 1, nice: 7 });
      const niceOfNewThreads = () =>
        readdirSync("/proc/self/task")
          .filter((tid) => !before.has(tid))
          .flatMap((tid) => {
            try {
              const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
              return [Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])];
            } catch {
              return []; // ended meanwhile
            }
          });
      try {
        expect(await readers.rows<{ n: number }>("SELECT 1 AS n", [])).toEqual([{ n: 1 }]);
        expect(niceOfNewThreads()).toContain(7);
      } finally {
        await readers.close();
      }
    },
  );

  it("closes its threads, a stuck one included, without waiting for its read", async () => {
    const readers = new ReaderThreads(store.path, { size: 2, timeoutMs: 60_000 });
    expect(await readers.rows<{ n: number }>("SELECT 7 AS n", [])).toEqual([{ n: 7 }]);
    const stuck = readers.rows(SLOW_READ, []).then(
      () => "answered",
      (error: unknown) => error,
    );
    const started = performance.now();
    await readers.close();
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(await stuck).toBeInstanceOf(StoreOutageError);
    expect(readers.threads).toBe(0);
    await expect(readers.rows("SELECT 1", [])).rejects.toBeInstanceOf(StoreOutageError);
  });
});

describe("listing slots", () => {
  const { dir, cleanup } = tempDir();
  let store: SlowListingStore;
  let gw: Gateway;
  let base: string;

  beforeAll(async () => {
    store = new SlowListingStore(join(dir, "slots.db"));
    ({ gw, base } = await gatewayOver(store, dir, { concurrency: 1, maxWaitMs: 100, nice: 10 }));
  });
  afterAll(async () => {
    await gw?.close();
    await store?.close();
    cleanup();
  });

  it("answers 503 list_busy with Retry-After when no slot frees up in time, and the slow one still answers", async () => {
    const partner = await createPartner(gw);
    const token = await login(gw, partner);
    let open: () => void = () => {};
    store.gate = new Promise<void>((resolve) => (open = resolve));
    const slow = listOver(base, partner, token);
    // The first listing holds the only slot until the gate opens; the next waits 100 ms for it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await listOver(base, partner, token);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { code: string; retry_after: number };
    expect(body.code).toBe("list_busy");
    expect(body.retry_after).toBe(retryAfter);
    store.gate = undefined;
    open();
    expect((await slow).status).toBe(200);
    expect((await listOver(base, partner, token)).status).toBe(200);
  });
});

describe("listing slots on PostgreSQL", () => {
  let gw: Gateway & { dir: string };
  let base: string;
  let locker: pg.Client | undefined;

  beforeAll(async () => {
    gw = await startGateway({
      store: "postgres",
      config: { users: TEST_USERS_CONFIG, lists: { concurrency: 1, maxWaitMs: 100, nice: 10 } },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterEach(async () => {
    await locker?.end().catch(() => {});
    locker = undefined;
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("refuses a listing with 503 list_busy while the only slot waits on a locked table", async () => {
    const tenant = await createTenant(gw, "Slots PG");
    const partner = await tenantPartner(gw, tenant.id, "Lister");
    const token = await login(gw, partner);
    const user = await userToken(gw, tenant.member.email);
    // An ACCESS EXCLUSIVE lock makes every read of the orders wait: the first listing holds
    // the one slot while it waits.
    const url = new URL(gw.config.databaseUrl);
    locker = new pg.Client({ connectionString: gw.config.databaseUrl });
    await locker.connect();
    const schema = url.searchParams.get("options")?.match(/search_path=([\w]+)/)?.[1];
    if (schema) await locker.query(`SET search_path TO ${schema}`);
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE sales_orders IN ACCESS EXCLUSIVE MODE");
    const held = fetch(`${base}/v1/orders?limit=5`, {
      headers: { authorization: `Bearer ${user}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await listOver(base, partner, token);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { code: string }).code).toBe("list_busy");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await locker.query("COMMIT");
    expect((await held).status).toBe(200);
    expect((await listOver(base, partner, token)).status).toBe(200);
  });
});

describe("ListSlots", () => {
  it("hands freed slots to principals in turn, so one looping partner waits behind itself", async () => {
    const slots = new ListSlots({ slots: 1, maxWaitMs: 5_000, perPrincipalQueue: 8 });
    const order: string[] = [];
    let release: () => void = () => {};
    const first = slots.run("a", () => new Promise<void>((r) => (release = r)));
    const queued = [
      ...["a1", "a2", "a3"].map((name) => slots.run("a", async () => void order.push(name))),
      slots.run("b", async () => void order.push("b1")),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("refuses at once past a principal's queue, others still wait", async () => {
    const slots = new ListSlots({ slots: 1, maxWaitMs: 5_000, perPrincipalQueue: 1 });
    let release: () => void = () => {};
    const first = slots.run("a", () => new Promise<void>((r) => (release = r)));
    const waiting = slots.run("a", async () => "a");
    await expect(slots.run("a", async () => "a")).rejects.toBeInstanceOf(ListsBusy);
    const other = slots.run("b", async () => "b");
    release();
    await first;
    expect(await Promise.all([waiting, other])).toEqual(["a", "b"]);
  });
});
