import { afterEach, describe, expect, it } from "vitest";
import { redisAnswers } from "../bench/redis-answers.mjs";
import type { GatewayConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  json,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { freshDatabaseUrl } from "./support/stores.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

// Outside CI a down Redis skips the shared-counter cases, loudly.
const redisUp = await redisAnswers(REDIS_URL);
if (!redisUp) {
  if (process.env.CI)
    throw new Error(`Redis at ${REDIS_URL} does not answer; CI runs these tests.`);
  console.warn(
    `\n!!! Redis at ${REDIS_URL} does not answer: SKIPPING the shared rate-limit case.\n`,
  );
}

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.close();
});

const limits = (ordersMax: number, loginMax = 100) => ({
  windowSeconds: 60,
  ordersMax,
  loginMax,
});

async function start(config: Partial<GatewayConfig>, dir = tempDir().dir) {
  const gw = await startGateway({
    dir,
    config: { databaseUrl: await freshDatabaseUrl("sqlite", dir), ...config },
  });
  gateways.push(gw);
  return gw;
}

async function listOrders(gw: Gateway, partner: TestPartner, token: string) {
  return gw.app.inject({
    method: "GET",
    url: "/api/v1/sales-orders",
    headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
  });
}

describe("rate limiting per client_id", () => {
  it("answers 429 rate_limited with Retry-After once a client exceeds its limit, and only that client", async () => {
    const gw = await start({ rateLimit: limits(3), redisUrl: undefined });
    const [a, b] = [await createPartner(gw), await createPartner(gw, undefined, "Other")];
    const [tokenA, tokenB] = [await login(gw, a), await login(gw, b)];
    const create = (p: TestPartner, token: string) =>
      gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: signedHeaders(p, token, String(Math.floor(Date.now() / 1000))),
        payload: order(),
      });
    for (let i = 0; i < 3; i++) expect((await create(a, tokenA)).statusCode).toBe(201);
    const limited = await create(a, tokenA);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toContain("application/problem+json");
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(json(limited)).toMatchObject({
      code: "rate_limited",
      status: 429,
      retry_after: retryAfter,
    });
    // Reads count too, and the refused order was not created.
    expect((await listOrders(gw, a, tokenA)).statusCode).toBe(429);
    expect((await create(b, tokenB)).statusCode).toBe(201);
    expect(
      (
        await gw.store.listOrders((await gw.store.findPartnerByClientId(a.clientId))?.id ?? "", {
          limit: 10,
        })
      ).orders,
    ).toHaveLength(3);
  });

  it("documents the 429 on every rate-limited operation in the OpenAPI document", async () => {
    const gw = await start({});
    const spec = json(await gw.app.inject({ method: "GET", url: "/openapi.json" })) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const [path, method] of [
      ["/api/v1/auth/login", "post"],
      ["/api/v1/sales-orders", "post"],
      ["/api/v1/sales-orders", "get"],
      ["/api/v1/sales-orders/{id}", "get"],
    ] as const)
      expect(spec.paths[path]?.[method]?.responses["429"], `${method} ${path}`).toBeDefined();
  });

  it("limits login attempts per source address, whichever client_id they name", async () => {
    const gw = await start({ rateLimit: limits(100, 2), redisUrl: undefined });
    const partner = await createPartner(gw);
    const other = await createPartner(gw, undefined, "Other");
    await login(gw, partner);
    await login(gw, other);
    const third = await gw.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
    });
    expect(third.statusCode).toBe(429);
    expect(json(third).code).toBe("rate_limited");
    expect(json(third).detail).toContain("from this address");
    expect(third.headers["retry-after"]).toBeDefined();
    // Another address has its own budget.
    const elsewhere = await gw.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      remoteAddress: "192.0.2.7",
      payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it("counts in each process without Redis, and across instances with REDIS_URL", async () => {
    for (const redisUrl of redisUp ? [undefined, REDIS_URL] : [undefined]) {
      const { dir } = tempDir();
      const a = await start({ rateLimit: limits(4), redisUrl }, dir);
      const b = await start({ rateLimit: limits(4), redisUrl }, dir);
      const partner = await createPartner(a);
      const token = await login(a, partner);
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await listOrders(i % 2 ? b : a, partner, token)).statusCode);
      // Alone, each instance allows 4 (6 requests, 3 each, all pass); shared, the 5th is refused.
      expect(statuses).toEqual(
        redisUrl ? [200, 200, 200, 200, 429, 429] : [200, 200, 200, 200, 200, 200],
      );
      expect(a.config.redisUrl).toBe(redisUrl);
    }
  });

  it.skipIf(!redisUp)(
    "refuses exactly the requests over the limit when many arrive at once on two instances",
    async () => {
      const { dir } = tempDir();
      const a = await start({ rateLimit: limits(10), redisUrl: REDIS_URL }, dir);
      const b = await start({ rateLimit: limits(10), redisUrl: REDIS_URL }, dir);
      const partner = await createPartner(a);
      const token = await login(a, partner);
      // Requests of one event-loop turn share one Redis round trip; each still gets its own count.
      const statuses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          listOrders(i % 2 ? b : a, partner, token).then((r) => r.statusCode),
        ),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    },
  );

  it("lets requests through when Redis does not answer, rather than failing them", async () => {
    const gw = await start({ rateLimit: limits(1), redisUrl: "redis://127.0.0.1:1" });
    const partner = await createPartner(gw);
    const token = await login(gw, partner);
    expect((await listOrders(gw, partner, token)).statusCode).toBe(200);
    expect((await listOrders(gw, partner, token)).statusCode).toBe(200);
  });
});
