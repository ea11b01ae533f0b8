/**
 * Bookkeeping tables stop growing: the purge deletes refresh records, Idempotency-Keys and
 * failed sign-in counters past their retention and keeps everything newer, on both stores,
 * with the gateway on a real socket and time moved by the injectable clock.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sqlitePathOf } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { openStore } from "../src/store/open.js";
import { purgeExpired, schedulePurge } from "../src/store/purge.js";
import type { ExpiringTable } from "../src/store/tenant-store.js";
import {
  createPartner,
  FakeClock,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { freshDatabaseUrl, freshStore, type StoreKind, storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG } from "./support/tenants.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ApiBody {
  token: string;
  code?: string;
  data: { id: string };
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/** Reads a table's row count straight from the database, beside the gateway's connections. */
async function rowCount(kind: StoreKind, url: string, table: ExpiringTable): Promise<number> {
  if (kind === "sqlite") {
    const db = new Database(sqlitePathOf(url), { readonly: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  } finally {
    await client.end();
  }
}

describe.each(storeKinds)("retention (%s store)", (kind) => {
  it("purges rows past retention, keeps newer ones, and honours an Idempotency-Key for its window", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    const clock = new FakeClock();
    const gw: Gateway = await startGateway({
      dir,
      clock,
      config: { databaseUrl: url, users: TEST_USERS_CONFIG },
    });
    cleanups.push(() => gw.close());
    const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const retention = gw.config.retention;
    expect(retention).toMatchObject({
      idempotencySeconds: 7 * DAY,
      refreshSeconds: 36 * HOUR,
      loginFailureSeconds: DAY,
    });
    const partner = await createPartner(gw);
    const tenant = await createTenant(gw, "Retention Co");

    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as ApiBody,
      };
    };
    const login = async (p: TestPartner) =>
      (await post("/api/v1/auth/login", { client_id: p.clientId, client_secret: p.clientSecret }))
        .body.token;
    /** One of each bookkeeping row at the clock's time; returns the refreshed partner token. */
    const leaveTraces = async (label: string) => {
      const token = await login(partner);
      expect((await post("/api/v1/auth/refresh", { token })).status).toBe(200);
      const user = await post("/v1/auth/login", {
        email: tenant.member.email,
        password: "correct horse battery staple",
      });
      expect((await post("/v1/auth/refresh", { token: user.body.token })).status).toBe(200);
      const failed = await post("/v1/auth/login", {
        email: `nobody-${label}@example.com`,
        password: "wrong wrong wrong",
      });
      expect(failed.status).toBe(401);
      return token;
    };
    const createOrder = async (key: string) => {
      const token = await login(partner);
      return post("/api/v1/sales-orders", order(), {
        ...signedHeaders(partner, token, String(clock.seconds)),
        "idempotency-key": key,
      });
    };

    const first = await createOrder("order-k1");
    expect(first.status).toBe(201);
    await leaveTraces("old");
    clock.advanceSeconds(6 * DAY);
    const recentToken = await leaveTraces("new");
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          (
            [
              "token_refreshes",
              "user_token_refreshes",
              "idempotency_keys",
              "login_failures",
            ] as const
          ).map(async (t) => [t, await rowCount(kind, url, t)] as const),
        ),
      );
    // A failed sign-in counts for its email, its source address, and both (the address's count
    // is one row, restarted by the second failure); a success marks its account and address
    // (one row for the partner, one for the user, each moved to the latest success).
    expect(await counts()).toEqual({
      token_refreshes: 2,
      user_token_refreshes: 2,
      idempotency_keys: 1,
      login_failures: 7,
    });

    // 7 days less an hour after the order: the old refresh records and failures are past
    // retention, the newer ones (23 h old) and the Idempotency-Key are not.
    clock.advanceSeconds(DAY - HOUR);
    const purged = await purgeExpired(gw.store, retention, clock.now(), 1);
    expect(purged).toEqual({
      token_refreshes: 1,
      user_token_refreshes: 1,
      idempotency_keys: 0,
      login_failures: 2,
      revoked_sessions: 0,
      console_sessions: 0,
      webhook_attempts: 0,
      webhook_deliveries: 0,
      order_events: 0,
      // The create's replay nonce, past its timestamp window.
      request_nonces: 1,
      webhook_test_events: 0,
      partner_request_log: 0,
      audit_events: 0,
      password_links: 0,
      second_factor_challenges: 0,
    });
    expect(await counts()).toEqual({
      token_refreshes: 1,
      user_token_refreshes: 1,
      idempotency_keys: 1,
      login_failures: 5,
    });
    const retry = await createOrder("order-k1");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.data.id).toBe(first.body.data.id);
    // The kept refresh record still catches a second refresh of the same token.
    const reused = await post("/api/v1/auth/refresh", { token: recentToken });
    expect(reused.body.code).toBe("refresh_token_reused");

    // Past the window the key is forgotten: the same request is a new order.
    clock.advanceSeconds(2 * HOUR);
    expect((await purgeExpired(gw.store, retention, clock.now())).idempotency_keys).toBe(1);
    const after = await createOrder("order-k1");
    expect(after.status).toBe(201);
    expect(after.headers.get("idempotent-replayed")).toBeNull();
    expect(after.body.data.id).not.toBe(first.body.data.id);
    // A purge with nothing to do deletes nothing.
    const idle = await purgeExpired(gw.store, retention, clock.now());
    expect(Object.values(idle).every((n) => n === 0)).toBe(true);
  });
});

describe.each(storeKinds)("three instances purging at once (%s store)", (kind) => {
  it("delete each expired row once between them and leave the live rows", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    const [a, b, c] = [await openStore(url), await openStore(url), await openStore(url)];
    cleanups.push(
      () => a.close(),
      () => b.close(),
      () => c.close(),
    );
    const now = Date.UTC(2026, 0, 15);
    for (let i = 0; i < 200; i++)
      await a.tenants.recordLoginFailure(`old-${i}`, now - 2 * DAY * 1000, 0);
    for (let i = 0; i < 5; i++) await a.tenants.recordLoginFailure(`new-${i}`, now, 0);
    const retention = {
      idempotencySeconds: 7 * DAY,
      refreshSeconds: 36 * HOUR,
      loginFailureSeconds: DAY,
      purgeIntervalSeconds: 600,
      webhookSeconds: 30 * DAY,
      orderEventSeconds: 30 * DAY,
      auditSeconds: 365 * DAY,
    };
    const reports = await Promise.all(
      [a, b, c].map((store) => purgeExpired(store, retention, now, 7)),
    );
    expect(reports.reduce((sum, r) => sum + r.login_failures, 0)).toBe(200);
    expect(await rowCount(kind, url, "login_failures")).toBe(5);
    for (let i = 0; i < 5; i++) expect(await a.tenants.loginFailures(`new-${i}`)).toBeDefined();
  });
});

/** Runs one statement straight on the database (what a finished delivery leaves behind). */
async function execute(kind: StoreKind, url: string, sql: string, params: unknown[]) {
  if (kind === "sqlite") {
    const db = new Database(sqlitePathOf(url));
    try {
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let n = 0;
    await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await client.end();
  }
}

describe.each(storeKinds)("order event retention (%s store)", (kind) => {
  it("purges an order's events past retention, never while one of its deliveries is left", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    const clock = new FakeClock();
    const gw = await startGateway({ dir, clock, config: { databaseUrl: url } });
    cleanups.push(() => gw.close());
    const quiet = await createPartner(gw, undefined, "No Webhooks");
    const hooked = await createPartner(gw, undefined, "With Webhooks");
    await gw.webhooks.create(
      { clientId: hooked.clientId },
      { url: "https://hooks.example.com/orderline", events: ["*"] },
    );
    for (const partner of [quiet, hooked]) {
      const login = await gw.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
      });
      const created = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: signedHeaders(partner, login.json().token, String(clock.seconds)),
        payload: order(),
      });
      expect(created.statusCode).toBe(201);
    }
    // Fan-out (what the webhook worker does first; SQLite queues deliveries at creation).
    await gw.store.webhooks.dispatchEvents(100, clock.now());
    expect(await rowCount(kind, url, "order_events")).toBe(2);
    expect(await rowCount(kind, url, "webhook_deliveries")).toBe(1);
    const retention = gw.config.retention;
    expect(retention.orderEventSeconds).toBe(30 * DAY);

    // 31 days on, with the delivery still pending (an attempt just made): the event without
    // deliveries goes; the one with the pending delivery stays, as does the delivery.
    clock.advanceSeconds(31 * DAY);
    await execute(kind, url, "UPDATE webhook_deliveries SET updated_at = ?", [clock.now()]);
    let purged = await purgeExpired(gw.store, retention, clock.now());
    expect(purged).toMatchObject({ order_events: 1, webhook_deliveries: 0 });
    expect(await rowCount(kind, url, "order_events")).toBe(1);
    expect(await rowCount(kind, url, "webhook_deliveries")).toBe(1);

    // Delivered now: the delivery is kept for the webhook retention, and its event with it…
    await execute(kind, url, "UPDATE webhook_deliveries SET state = 'succeeded', updated_at = ?", [
      clock.now(),
    ]);
    clock.advanceSeconds(29 * DAY);
    purged = await purgeExpired(gw.store, retention, clock.now());
    expect(purged).toMatchObject({ order_events: 0, webhook_deliveries: 0 });
    // …then both go, the delivery first, in the same purge.
    clock.advanceSeconds(2 * DAY);
    purged = await purgeExpired(gw.store, retention, clock.now());
    expect(purged).toMatchObject({ order_events: 1, webhook_deliveries: 1 });
    expect(await rowCount(kind, url, "order_events")).toBe(0);
    // The orders themselves are never purged.
    expect(await rowCount(kind, url, "sales_orders" as ExpiringTable)).toBe(2);
  });
});

describe("the purge schedule", () => {
  it("purges every interval, logs what it deleted, and stop() waits for a running purge", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = await freshStore("sqlite", dir);
    cleanups.push(() => store.close());
    const clock = new FakeClock();
    await store.tenants.recordLoginFailure("stale-account", clock.now(), 0);
    const retention = {
      idempotencySeconds: 7 * DAY,
      refreshSeconds: 36 * HOUR,
      loginFailureSeconds: DAY,
      purgeIntervalSeconds: 600,
      webhookSeconds: 30 * DAY,
      orderEventSeconds: 30 * DAY,
      auditSeconds: 365 * DAY,
    };
    const lines: { object: object; message: string }[] = [];
    const log = {
      info: (object: object, message: string) => lines.push({ object, message }),
      warn: (object: object, message: string) => lines.push({ object, message }),
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const schedule = schedulePurge(store, retention, clock.now, log);
      clock.advanceSeconds(2 * DAY);
      // Nothing before the first interval (jitter adds up to 10 %)…
      await vi.advanceTimersByTimeAsync(590_000);
      expect(await store.tenants.loginFailures("stale-account")).toBeDefined();
      // …then the stale counter goes, and the purge says so.
      await vi.advanceTimersByTimeAsync(80_000);
      await schedule.stop();
      expect(await store.tenants.loginFailures("stale-account")).toBeUndefined();
      expect(lines).toEqual([
        {
          object: {
            event: "purge",
            deleted: {
              token_refreshes: 0,
              user_token_refreshes: 0,
              idempotency_keys: 0,
              login_failures: 1,
              revoked_sessions: 0,
              console_sessions: 0,
              webhook_attempts: 0,
              webhook_deliveries: 0,
              order_events: 0,
              request_nonces: 0,
              webhook_test_events: 0,
              partner_request_log: 0,
              audit_events: 0,
              password_links: 0,
              second_factor_challenges: 0,
            },
          },
          message: "expired bookkeeping rows deleted",
        },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("retention settings", () => {
  it("refuse a refresh retention shorter than a token can still be refreshed", async () => {
    const { loadConfig } = await import("../src/config/config.js");
    expect(() => loadConfig({ GATEWAY_REFRESH_RETENTION_SECONDS: "3600" })).toThrow(
      /at least the token lifetime plus GATEWAY_REFRESH_GRACE_SECONDS \(129600\)/,
    );
    expect(() => loadConfig({ GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS: "60" })).toThrow(
      /GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS=60 is not valid: .*at least .*\(3600\)/,
    );
    expect(
      loadConfig({
        GATEWAY_IDEMPOTENCY_RETENTION_SECONDS: "86400",
        GATEWAY_REFRESH_GRACE_SECONDS: "0",
      }).retention,
    ).toMatchObject({ idempotencySeconds: 86400, refreshSeconds: 12 * HOUR });
  });
});
