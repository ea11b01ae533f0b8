import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createPartnerClient,
  PartnerApiError,
  type PartnerClientOptions,
  PartnerNetworkError,
  type SalesOrderInput,
} from "../src/index.js";
import { FaultProxy } from "./support/fault-proxy.js";
import {
  createPartner,
  FakeClock,
  order,
  type RunningGateway,
  runGateway,
  type TestPartner,
} from "./support/gateway.js";

// The gateway runs on a clock that starts at the real time and that tests can move forward.
const clock = new FakeClock(Date.now());
let gateway: RunningGateway;
let proxy: FaultProxy;
let partner: TestPartner;

beforeAll(async () => {
  gateway = await runGateway(clock);
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(async () => {
  clock.ms = Date.now();
  partner = await createPartner(gateway.gw);
  proxy = await new FaultProxy(gateway.url, clock.now).start();
});
afterEach(async () => {
  await proxy.close();
});

function client(options: Partial<PartnerClientOptions> = {}) {
  return createPartnerClient({
    baseUrl: proxy.url,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    privateKey: partner.keys.privatePem,
    retryBaseDelayMs: 5,
    ...options,
  });
}

const paths = () => proxy.attempts.map((a) => `${a.method} ${a.url.split("?")[0]}`);
const order1 = (po: string) => order({ purchase_order_no: po }) as unknown as SalesOrderInput;

describe("sales orders", () => {
  it("logs in on first use, then creates, gets and lists over signed requests", async () => {
    const sdk = client();
    const created = await sdk.salesOrders.create(order1("PO-1"));
    expect(created.order_number).toMatch(/^SO-/);
    expect(created.purchase_order_no).toBe("PO-1");
    expect((await sdk.salesOrders.get(created.id)).id).toBe(created.id);
    const page = await sdk.salesOrders.list({ limit: 10 });
    expect(page.data.map((o) => o.id)).toEqual([created.id]);
    expect(paths()).toEqual([
      "POST /api/v1/auth/login",
      "POST /api/v1/sales-orders",
      `GET /api/v1/sales-orders/${created.id}`,
      "GET /api/v1/sales-orders",
    ]);
    // Every order request carries the signature headers and a timestamp of the server's clock.
    for (const attempt of proxy.orderAttempts()) {
      expect(attempt.headers["x-client-id"]).toBe(partner.clientId);
      expect(Math.abs(Number(attempt.headers["x-timestamp"]) / 1000 - clock.seconds)).toBeLessThan(
        5,
      );
      expect(attempt.headers["x-signature"]).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
  });

  it("iterates over every page, newest first", async () => {
    const sdk = client();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await sdk.salesOrders.create(order1(`IT-${i}`))).id);
    const seen: string[] = [];
    for await (const o of sdk.salesOrders.iterate({ pageSize: 2 })) seen.push(o.id);
    expect(seen).toEqual(ids.reverse());
    expect(proxy.orderAttempts().filter((a) => a.method === "GET")).toHaveLength(3);
  });

  it("throws a typed error with the problem's code, detail and request id, without retrying", async () => {
    const sdk = client();
    const error = await sdk.salesOrders
      .create({ ...order1("BAD"), products: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    const apiError = error as PartnerApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe("validation_failed");
    expect(apiError.detail).toContain("/products");
    expect(apiError.requestId).toMatch(/\S/);
    expect(apiError.requestId).toBe(apiError.problem.request_id);
    expect(proxy.orderAttempts()).toHaveLength(1);
    const missing = await sdk.salesOrders.get("no-such-order").catch((e: unknown) => e);
    expect((missing as PartnerApiError).code).toBe("order_not_found");
  });

  it("refuses bad credentials with invalid_client and never puts the secret in the error", async () => {
    const sdk = client({ clientSecret: "wrong-secret-value" });
    const error = (await sdk.salesOrders.list().catch((e: unknown) => e)) as PartnerApiError;
    expect(error.code).toBe("invalid_client");
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(
      "wrong-secret-value",
    );
  });
});

describe("signed logins", () => {
  it("signs its login with the key, so failed unsigned logins from its own address do not lock it out", async () => {
    // Someone guesses secrets for this client_id from the SDK's own address (the proxy's,
    // 127.0.0.1) until that address is locked for it.
    for (let i = 0; i < 6; i++) {
      await fetch(`${gateway.url}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_id: partner.clientId, client_secret: `ols_guess_${i}` }),
      });
    }
    const unsigned = await client({ signLogin: false })
      .login()
      .catch((e: unknown) => e);
    expect((unsigned as PartnerApiError).code).toBe("login_throttled");

    const sdk = client();
    await sdk.salesOrders.create(order1("SIGNED-LOGIN"));
    const login = proxy.attempts.filter((a) => a.url === "/api/v1/auth/login").at(-1);
    expect(login?.headers["x-client-id"]).toBe(partner.clientId);
    expect(login?.headers["x-timestamp"]).toMatch(/^\d{13}$/);
    expect(login?.headers["x-signature"]).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});

describe("cancel", () => {
  it("cancels a received order with a reason, kept in its history and version", async () => {
    const sdk = client();
    const created = await sdk.salesOrders.create(order1("CAN-1"));
    expect(created.version).toBe(1);
    const cancelled = await sdk.salesOrders.cancel(created.id, { reason: "sent twice by mistake" });
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.version).toBe(2);
    expect(cancelled.history.map((c) => [c.from, c.to, c.reason, c.actor.type])).toEqual([
      [null, "received", null, "partner"],
      ["received", "cancelled", "sent twice by mistake", "partner"],
    ]);
    const got = await sdk.salesOrders.get(created.id);
    expect(got.status).toBe("cancelled");
    expect(got.history).toHaveLength(2);
    const [attempt] = proxy.orderAttempts().filter((a) => a.url.endsWith("/cancel"));
    expect(JSON.parse(attempt?.body ?? "")).toEqual({ reason: "sent twice by mistake" });
  });

  it("throws order_transition_invalid with the current status when the order cannot be cancelled", async () => {
    const sdk = client();
    const created = await sdk.salesOrders.create(order1("CAN-2"));
    await sdk.salesOrders.cancel(created.id, { reason: "first" });
    const error = (await sdk.salesOrders
      .cancel(created.id, { reason: "again" })
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error.status).toBe(409);
    expect(error.code).toBe("order_transition_invalid");
    expect(error.problem.current_status).toBe("cancelled");
    expect(error.attempts).toBe(1);
    const missing = await sdk.salesOrders.cancel("no-such-order", { reason: "x" }).catch((e) => e);
    expect((missing as PartnerApiError).code).toBe("order_not_found");
  });

  it("returns the cancelled order when the first attempt went through and its answer was lost", async () => {
    const sdk = client();
    const created = await sdk.salesOrders.create(order1("CAN-3"));
    proxy.faults = [{ kind: "forward-then-respond", status: 503 }];
    const cancelled = await sdk.salesOrders.cancel(created.id, { reason: "customer withdrew" });
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.history.at(-1)?.reason).toBe("customer withdrew");
    expect(paths().slice(-3)).toEqual([
      `POST /api/v1/sales-orders/${created.id}/cancel`,
      `POST /api/v1/sales-orders/${created.id}/cancel`,
      `GET /api/v1/sales-orders/${created.id}`,
    ]);
  });

  it("still throws the 409 after a retry when someone else's cancellation came first", async () => {
    const sdk = client();
    const created = await sdk.salesOrders.create(order1("CAN-4"));
    await sdk.salesOrders.cancel(created.id, { reason: "an earlier call" });
    proxy.faults = [{ kind: "destroy" }];
    const error = (await sdk.salesOrders
      .cancel(created.id, { reason: "this call" })
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error.code).toBe("order_transition_invalid");
    expect(error.attempts).toBe(2);
  });

  it("refuses a missing reason before sending anything", async () => {
    const sdk = client();
    await expect(sdk.salesOrders.cancel("some-id", { reason: " " })).rejects.toThrow(/reason/);
    expect(proxy.attempts).toHaveLength(0);
  });
});

describe("list filters", () => {
  it("filters by status, creation time and purchase order number, in list and iterate", async () => {
    const sdk = client();
    // A minute apart on the gateway's clock.
    const a = await sdk.salesOrders.create(order1("FLT-A"));
    clock.advanceSeconds(60);
    const b = await sdk.salesOrders.create(order1("FLT-B"));
    clock.advanceSeconds(60);
    const c = await sdk.salesOrders.create(order1("FLT-C"));
    await sdk.salesOrders.cancel(b.id, { reason: "not needed" });
    const ids = (page: { data: { id: string }[] }) => page.data.map((o) => o.id);

    expect(ids(await sdk.salesOrders.list({ status: "cancelled" }))).toEqual([b.id]);
    expect(ids(await sdk.salesOrders.list({ purchaseOrderNo: "FLT-C" }))).toEqual([c.id]);
    // From is inclusive, to exclusive; a Date or RFC 3339 text.
    expect(ids(await sdk.salesOrders.list({ createdFrom: new Date(b.created_at) }))).toEqual([
      c.id,
      b.id,
    ]);
    expect(ids(await sdk.salesOrders.list({ createdTo: b.created_at }))).toEqual([a.id]);
    expect(
      ids(
        await sdk.salesOrders.list({
          createdFrom: a.created_at,
          createdTo: c.created_at,
          status: "received",
        }),
      ),
    ).toEqual([a.id]);

    const received: string[] = [];
    for await (const o of sdk.salesOrders.iterate({ status: "received", pageSize: 1 })) {
      received.push(o.id);
    }
    expect(received).toEqual([c.id, a.id]);
    // Every page of the iteration carried the filter with its cursor.
    const listings = proxy
      .orderAttempts()
      .filter((x) => x.url.includes("limit=1&") && x.url.includes("status=received"));
    expect(listings.length).toBeGreaterThanOrEqual(2);
    expect(listings.slice(1).every((x) => x.url.includes("cursor="))).toBe(true);
  });

  it("passes the gateway's refusal of a bad filter through as validation_failed", async () => {
    const sdk = client();
    const error = (await sdk.salesOrders
      .list({ createdFrom: "yesterday" })
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error.code).toBe("validation_failed");
    await expect(sdk.salesOrders.list({ createdTo: new Date("not a date") })).rejects.toThrow(
      /createdTo is an invalid Date/,
    );
  });
});

describe("tokens and clocks", () => {
  it("refreshes once on token_expired and retries the request", async () => {
    const sdk = client();
    await sdk.salesOrders.list();
    clock.advanceSeconds(12 * 3600 + 5);
    await sdk.salesOrders.list();
    expect(paths()).toEqual([
      "POST /api/v1/auth/login",
      "GET /api/v1/sales-orders",
      "GET /api/v1/sales-orders",
      "POST /api/v1/auth/refresh",
      "GET /api/v1/sales-orders",
    ]);
  });

  it("refreshes before expiry when the token is inside the margin", async () => {
    // A margin longer than the token's life: every call finds it about to expire.
    const sdk = client({ refreshMarginSeconds: 13 * 3600 });
    await sdk.salesOrders.list();
    await sdk.salesOrders.list();
    expect(paths()).toEqual([
      "POST /api/v1/auth/login",
      "GET /api/v1/sales-orders",
      "POST /api/v1/auth/refresh",
      "GET /api/v1/sales-orders",
    ]);
  });

  it("logs in again when a refresh is refused", async () => {
    const sdk = client();
    await sdk.salesOrders.list();
    // Past the refresh grace window (24 h after expiry) the old token cannot be refreshed.
    clock.advanceSeconds(12 * 3600 + 25 * 3600);
    await sdk.salesOrders.list();
    expect(paths().slice(-3)).toEqual([
      "POST /api/v1/auth/refresh",
      "POST /api/v1/auth/login",
      "GET /api/v1/sales-orders",
    ]);
  });

  it("corrects a local clock an hour slow from the server's Date header", async () => {
    const sdk = client({ now: () => Date.now() - 3600_000 });
    await sdk.salesOrders.create(order1("SKEW-1"));
    expect(proxy.orderAttempts()).toHaveLength(1);
  });

  it("recovers once when the server's clock moves between requests", async () => {
    const sdk = client({ now: () => Date.now() + 3600_000 });
    await sdk.login();
    // The gateway's clock jumps after login: the Date-based estimate is now an hour off.
    clock.advanceSeconds(3600 * 2);
    await sdk.salesOrders.list();
    const attempts = proxy.orderAttempts();
    expect(attempts).toHaveLength(2);
    expect(
      Math.abs(Number(attempts[1]?.headers["x-timestamp"]) / 1000 - clock.seconds),
    ).toBeLessThan(5);
  });
});

describe("retries", () => {
  it("retries a create whose answer was lost with the same Idempotency-Key: one order", async () => {
    const sdk = client();
    proxy.faults = [{ kind: "forward-then-respond", status: 503 }, { kind: "destroy" }];
    const created = await sdk.salesOrders.create(order1("LOST-1"));
    const attempts = proxy.orderAttempts();
    expect(attempts).toHaveLength(3);
    const keys = new Set(attempts.map((a) => a.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    const all = [];
    for await (const o of sdk.salesOrders.iterate()) all.push(o);
    expect(all.map((o) => o.id)).toEqual([created.id]);
  });

  it("uses a new Idempotency-Key for each create", async () => {
    const sdk = client();
    await sdk.salesOrders.create(order1("K-1"));
    await sdk.salesOrders.create(order1("K-2"), { idempotencyKey: "partner-chosen-key-2" });
    const keys = proxy.orderAttempts().map((a) => a.headers["idempotency-key"]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[1]).toBe("partner-chosen-key-2");
  });

  it("waits as long as Retry-After says after a 429", async () => {
    const sdk = client();
    proxy.faults = [
      {
        kind: "respond",
        status: 429,
        headers: { "retry-after": "1" },
        body: { code: "rate_limited" },
      },
    ];
    await sdk.salesOrders.list();
    const [first, second] = proxy.orderAttempts();
    expect(second).toBeDefined();
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("retries a create the gateway answered 503 store_unavailable, after its Retry-After, with the same key", async () => {
    const sdk = client();
    proxy.faults = [
      {
        kind: "respond",
        status: 503,
        headers: { "retry-after": "1" },
        body: { code: "store_unavailable", detail: "The store cannot be reached right now" },
      },
    ];
    const created = await sdk.salesOrders.create(order1("STORE-1"));
    expect(created.id).toBeDefined();
    const [first, second] = proxy.orderAttempts();
    expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("does not wait for a Retry-After beyond the limit: the 429 reaches the caller", async () => {
    const sdk = client({ maxRetryAfterMs: 1000 });
    proxy.faults = [
      {
        kind: "respond",
        status: 429,
        headers: { "retry-after": "120" },
        body: { code: "rate_limited", detail: "slow down" },
      },
    ];
    const error = (await sdk.salesOrders.list().catch((e: unknown) => e)) as PartnerApiError;
    expect(error.code).toBe("rate_limited");
    expect(proxy.orderAttempts()).toHaveLength(1);
  });

  it("gives up after maxRetries on 503 with the last problem", async () => {
    const sdk = client({ maxRetries: 2 });
    const unavailable = {
      kind: "respond" as const,
      status: 503,
      body: { code: "unavailable", detail: "draining" },
    };
    proxy.faults = [unavailable, unavailable, unavailable];
    const error = (await sdk.salesOrders.list().catch((e: unknown) => e)) as PartnerApiError;
    expect(error.status).toBe(503);
    expect(proxy.orderAttempts()).toHaveLength(3);
  });

  it("does not retry a 500", async () => {
    const sdk = client();
    proxy.faults = [{ kind: "respond", status: 500, body: { code: "internal_error" } }];
    const error = (await sdk.salesOrders.list().catch((e: unknown) => e)) as PartnerApiError;
    expect(error.code).toBe("internal_error");
    expect(proxy.orderAttempts()).toHaveLength(1);
  });

  it("reports an unreachable gateway as PartnerNetworkError after the retries", async () => {
    const closed = await new FaultProxy(gateway.url).start();
    const url = closed.url;
    await closed.close();
    const sdk = client({ baseUrl: url, maxRetries: 1 });
    const error = await sdk.salesOrders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerNetworkError);
    expect((error as PartnerNetworkError).attempts).toBe(2);
  });
});

describe("signature version 2", () => {
  it("a version 1 client switches to version 2 when the gateway requires it, and stays there", async () => {
    await gateway.gw.partners.setSignatureVersion(partner.clientId, 2);
    const sdk = client({ signatureVersion: 1 });
    expect(sdk.signatureVersion).toBe(1);
    const created = await sdk.salesOrders.create(order1("V2-1"));
    expect(sdk.signatureVersion).toBe(2);
    await sdk.salesOrders.get(created.id);
    const versions = proxy.orderAttempts().map((a) => a.headers["x-signature-version"]);
    expect(versions).toEqual([undefined, "2", "2"]);
  });

  it("signs version 2 from the start by default (body covered), and 1 only when asked to", async () => {
    const sdk = client();
    expect(sdk.signatureVersion).toBe(2);
    await sdk.salesOrders.list({ limit: 3 });
    expect(proxy.orderAttempts().map((a) => a.headers["x-signature-version"])).toEqual(["2"]);
    expect(client({ signatureVersion: 1 }).signatureVersion).toBe(1);
  });
});

describe("options", () => {
  it("refuses a base URL without a scheme and a missing secret at once", () => {
    expect(() => client({ baseUrl: "gateway.example.com" })).toThrow(/http/);
    expect(() => client({ clientSecret: "" })).toThrow(/clientSecret/);
  });
});
