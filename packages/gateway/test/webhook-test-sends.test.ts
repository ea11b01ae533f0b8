/**
 * Webhook test sends share what real deliveries share: they go through
 * the same queue and the same `webhook_slots` (instance → partner → endpoint), so a partner
 * firing test events at many slow endpoints fills its own share of the slots, not the other
 * partners'; they count against the `test_sends` share (per partner and per endpoint, 429 with
 * Retry-After); each is attempted once, never retried; and the audit trail keeps one summary
 * line per endpoint and day instead of a row per test. Over real sockets, both stores.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { Receiver } from "./support/receiver.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

const ENDPOINTS = "/api/v1/webhook-endpoints";
/** How long partner A's receiver takes to answer each delivery. */
const HANG_MS = 8000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storeKinds)("webhook test sends (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    const defaults = loadConfig({});
    gw = await startGateway({
      store: kind,
      config: {
        users: TEST_USERS_CONFIG,
        webhooks: {
          ...defaults.webhooks,
          allowPrivate: "loopback",
          pollMs: 100,
          backoffBaseMs: 50,
          backoffMaxMs: 200,
        },
        // The defaults, spelled out: 8 slots, a partner's share 2, an endpoint's 2.
        shares: { ...defaults.shares, webhook_slots: { instance: 8, party: 2, item: 2 } },
      },
    });
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Receivers first: the attempts they hold fail at once and the worker can stop.
    for (const receiver of receivers.splice(0)) await receiver.stop();
    await gw.close();
  });

  async function receiver(answer: Receiver["answer"] = () => 204, delayMs = 0) {
    const r = await new Receiver().start();
    r.answer = answer;
    r.delayMs = delayMs;
    receivers.push(r);
    return r;
  }

  /** A partner of `tenantId` calling its own API with signed requests over the socket. */
  async function signedPartner(tenantId: string, name: string) {
    const partner: TestPartner = await tenantPartner(gw, tenantId, name);
    const login = await httpRequest(base, "POST", "/api/v1/auth/login", {
      body: { client_id: partner.clientId, client_secret: partner.clientSecret },
    });
    const token = login.body.token as string;
    const call = (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
      httpRequest(base, method, path, {
        ...(body === undefined ? {} : { body }),
        headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
      });
    const register = async (url: string, events = ["order.created"]): Promise<string> => {
      const created = await call("POST", ENDPOINTS, { url, events });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (created.body.data as { id: string }).id;
    };
    const test = (endpointId: string) => call("POST", `${ENDPOINTS}/${endpointId}/test`);
    const eventIdOf = (answer: HttpAnswer) => (answer.body.data as { event_id: string }).event_id;
    return { partner, call, register, test, eventIdOf };
  }

  /** `count` calls, `parallel` at a time, in order of their index. */
  async function inBatches<T>(count: number, parallel: number, call: (i: number) => Promise<T>) {
    const out: T[] = [];
    for (let i = 0; i < count; i += parallel)
      out.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(parallel, count - i) }, (_, j) => call(i + j)),
        )),
      );
    return out;
  }

  it("another partner's order event arrives within 5 s while one floods test sends at 16 hanging endpoints", async () => {
    const flooding = await createTenant(gw, "Flooding Tenant");
    const a = await signedPartner(flooding.id, "Partner A");
    const hanging = await receiver(() => 204, HANG_MS);
    const endpoints: string[] = [];
    for (let i = 0; i < 16; i++) endpoints.push(await a.register(`${hanging.url}?n=${i}`));
    // 80 test events, 5 per endpoint: 80 attempts of 8 s each.
    const sent = await inBatches(80, 16, (i) => a.test(endpoints[i % 16] as string));
    expect(sent.map((s) => s.status)).toEqual(Array(80).fill(201));
    await hanging.until((r) => r.length >= 2, "partner A's first attempts");

    const other = await createTenant(gw, "Other Tenant");
    const b = await signedPartner(other.id, "Partner B");
    const fast = await receiver();
    await b.register(fast.url);
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await b.call("POST", "/api/v1/sales-orders", order());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const at = Date.now();
      const orderId = (created.body.data as { id: string }).id;
      await fast.until(
        (r) => r.some((d) => (d.body.data.order as { id?: string } | undefined)?.id === orderId),
        "partner B's order.created",
      );
      const got = fast.received.find(
        (d) => (d.body.data.order as { id?: string } | undefined)?.id === orderId,
      );
      latencies.push((got?.at ?? Date.now()) - at);
    }
    console.info(`[${kind}] partner B's order.created delivered in ${latencies.join(", ")} ms`);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(5000);

    // Partner A had its share (2) of the instance's 8 slots at any moment, never more.
    const starts = hanging.received.map((d) => d.at);
    const overlapping = Math.max(
      ...starts.map((t) => starts.filter((s) => s <= t && s > t - (HANG_MS - 500)).length),
    );
    expect(overlapping).toBeLessThanOrEqual(2);
  }, 90_000);

  it("refuses the 101st test send in a minute with 429 and Retry-After, and delivers 100", async () => {
    const tenant = await createTenant(gw, "Rated Tenant");
    const c = await signedPartner(tenant.id, "Partner C");
    const ok = await receiver();
    const endpoints: string[] = [];
    for (let i = 0; i < 6; i++) endpoints.push(await c.register(`${ok.url}?n=${i}`));
    // 100 across 6 endpoints (at most 17 each, under the endpoint's 20).
    const sent = await inBatches(100, 10, (i) => c.test(endpoints[i % 6] as string));
    expect(sent.map((s) => s.status)).toEqual(Array(100).fill(201));

    const refused = await c.test(endpoints[0] as string);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", share: "test_sends" });
    expect(refused.body.share_level).toBe("party");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The partner's budget, whoever spends it: its tenant admin, or a resend of a test event.
    const admin = await userToken(gw, tenant.admin.email);
    const byAdmin = await httpRequest(
      base,
      "POST",
      `/v1/tenant/partners/${c.partner.clientId}/webhook-endpoints/${endpoints[1]}/test`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(byAdmin.status).toBe(429);
    expect(byAdmin.headers["retry-after"]).toBeDefined();
    const resent = await c.call(
      "POST",
      `${ENDPOINTS}/${endpoints[0]}/deliveries/${c.eventIdOf(sent[0] as HttpAnswer)}/resend`,
    );
    expect(resent.status).toBe(429);

    await ok.until((r) => r.length >= 100, "the 100 test events");
    await sleep(1000);
    expect(ok.received.length).toBe(100);
  }, 60_000);

  it("refuses the 21st test send to one endpoint in a minute", async () => {
    const tenant = await createTenant(gw, "Endpoint Rated Tenant");
    const d = await signedPartner(tenant.id, "Partner D");
    const ok = await receiver();
    const [one, two] = [await d.register(ok.url), await d.register(`${ok.url}?two`)];
    const sent = await inBatches(20, 10, () => d.test(one as string));
    expect(sent.map((s) => s.status)).toEqual(Array(20).fill(201));
    const refused = await d.test(one as string);
    expect(refused.status).toBe(429);
    expect(refused.body.share_level).toBe("item");
    expect(refused.headers["retry-after"]).toBeDefined();
    // Another endpoint of the same partner still has its own.
    expect((await d.test(two as string)).status).toBe(201);
  }, 60_000);

  it("a failing receiver gets each test event exactly once, while an order event is retried", async () => {
    const tenant = await createTenant(gw, "Failing Tenant");
    const e = await signedPartner(tenant.id, "Partner E");
    const failing = await receiver(() => 500);
    const endpoint = await e.register(failing.url, ["*"]);
    const tests = await Promise.all([1, 2, 3].map(() => e.test(endpoint)));
    const ids = tests.map(e.eventIdOf);
    const created = await e.call("POST", "/api/v1/sales-orders", order());
    expect(created.status).toBe(201);
    // Retries run (50-200 ms apart here): the order event comes again and again…
    await failing.until(
      (r) => r.filter((d) => d.body.type === "order.created").length >= 4,
      "order.created retried",
    );
    await sleep(1000);
    // …each test event came once.
    for (const id of ids) expect(failing.received.filter((d) => d.body.id === id)).toHaveLength(1);

    const listed = await e.call("GET", `${ENDPOINTS}/${endpoint}/deliveries?limit=100`);
    const attempts = (listed.body.data as { event_id: string; status: string }[]).filter((a) =>
      ids.includes(a.event_id),
    );
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.status === "failed")).toBe(true);
  }, 60_000);

  it("keeps one audit line per endpoint and day with the count, not a row per test", async () => {
    const tenant = await createTenant(gw, "Audited Tenant");
    const f = await signedPartner(tenant.id, "Partner F");
    const ok = await receiver();
    const [one, two] = [await f.register(ok.url), await f.register(`${ok.url}?two`)];
    // One after another: the count is read after each send is written (docs/decisions.md).
    await inBatches(5, 1, () => f.test(one as string));
    await inBatches(3, 1, () => f.test(two as string));
    const admin = await userToken(gw, tenant.admin.email);
    const byAdmin = await httpRequest(
      base,
      "POST",
      `/v1/tenant/partners/${f.partner.clientId}/webhook-endpoints/${one}/test`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(byAdmin.status).toBe(201);

    const trail = await httpRequest(
      base,
      "GET",
      "/v1/tenant/audit-events?action=webhook_test_sent&limit=100",
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(trail.status).toBe(200);
    const lines = trail.body.data as {
      subject: { type: string; id: string };
      details: { test_events: number; day: string; last_event_id: string };
    }[];
    const today = new Date().toISOString().slice(0, 10);
    expect(lines.map((l) => [l.subject.id, l.details.test_events, l.details.day]).sort()).toEqual(
      [
        [one, 6, today],
        [two, 3, today],
      ].sort(),
    );
    const lastOfOne = lines.find((l) => l.subject.id === one)?.details.last_event_id;
    expect(lastOfOne).toBe((byAdmin.body.data as { event_id: string }).event_id);
  }, 60_000);
});
