/**
 * One partner's slow receiver delays only its own deliveries: endpoints take turns
 * and each holds at most GATEWAY_WEBHOOK_ENDPOINT_CONCURRENCY of the worker's slots, so another
 * partner's deliveries keep arriving promptly while a backlog for the slow one waits. On
 * PostgreSQL the worker wakes on a notification, not at its next poll. (Test sends flooding
 * many endpoints of one partner: webhook-test-sends.test.ts.)
 */
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, type WebhooksConfig } from "../src/config/config.js";
import type { ShareBudgets } from "../src/config/shares.js";
import { createPartner, login, order, signedHeaders, startGateway } from "./helpers.js";
import { Receiver } from "./support/receiver.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  kind: (typeof storeKinds)[number],
  webhooks: Partial<WebhooksConfig>,
  slots: ShareBudgets["webhook_slots"] = {},
) {
  const defaults = loadConfig({});
  const gw = await startGateway({
    store: kind,
    config: {
      users: TEST_USERS_CONFIG,
      webhooks: { ...defaults.webhooks, allowPrivate: "loopback", ...webhooks },
      shares: {
        ...defaults.shares,
        webhook_slots: { ...defaults.shares.webhook_slots, ...slots },
      },
    },
  });
  cleanups.push(() => gw.close());
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  const tenant = await createTenant(gw, `Fair ${Math.random().toString(36).slice(2, 8)}`);
  const adminToken = await userToken(gw, tenant.admin.email);

  /** A partner of the tenant with one endpoint at a receiver answering after `delayMs`. */
  const partnerWithReceiver = async (name: string, delayMs: number) => {
    const partner = await tenantPartner(gw, tenant.id, name);
    const receiver = await new Receiver().start();
    receiver.delayMs = delayMs;
    cleanups.push(() => receiver.stop());
    const created = await fetch(
      `${base}/v1/tenant/partners/${partner.clientId}/webhook-endpoints`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["*"] }),
      },
    );
    expect(created.status).toBe(201);
    const token = await login(gw, partner);
    /** Places one order over the socket; resolves with the time the gateway acknowledged it. */
    const place = async (): Promise<{ id: string; at: number }> => {
      const response = await fetch(`${base}/api/v1/sales-orders`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
        },
        body: JSON.stringify(order()),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { data: { id: string } };
      return { id: body.data.id, at: Date.now() };
    };
    return { receiver, place };
  };
  return { partnerWithReceiver };
}

/** When the receiver got the first event of `orderId` (polls until it has). */
async function arrival(receiver: Receiver, orderId: string, deadline: number): Promise<number> {
  for (;;) {
    const got = receiver.received.find(
      (r) => (r.body.data as { order?: { id?: string } }).order?.id === orderId,
    );
    if (got) return got.at;
    if (Date.now() > deadline) throw new Error(`order ${orderId} was not delivered in time`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(storeKinds)("webhook fairness (%s store)", (kind) => {
  it("a receiver answering in 2 s leaves another partner's deliveries under 2 s", async () => {
    const { partnerWithReceiver } = await setUp(
      kind,
      { pollMs: 100, timeoutMs: 5000, leaseMs: 15_000 },
      { instance: 8, party: 4, item: 2 },
    );
    const slow = await partnerWithReceiver("Slow Partner", 2000);
    const fast = await partnerWithReceiver("Fast Partner", 0);
    // A backlog of 30 for the slow receiver: 30 s of work at 2 at a time.
    for (let i = 0; i < 30; i++) await slow.place();
    const latencies: number[] = [];
    const deadline = Date.now() + 20_000;
    for (let i = 0; i < 12; i++) {
      const placed = await fast.place();
      latencies.push((await arrival(fast.receiver, placed.id, deadline)) - placed.at);
    }
    expect(Math.max(...latencies)).toBeLessThan(2000);
    // The slow one is served all along, never more than its two at a time.
    expect(slow.receiver.received.length).toBeGreaterThanOrEqual(2);
    const slowStarts = slow.receiver.received.map((r) => r.at);
    const overlapping = Math.max(
      ...slowStarts.map((t) => slowStarts.filter((s) => s <= t && s > t - 1900).length),
    );
    expect(overlapping).toBeLessThanOrEqual(2);
  }, 60_000);

  it.runIf(kind === "postgres")(
    "wakes on a notification: a delivery long before the next poll",
    async () => {
      const { partnerWithReceiver } = await setUp(kind, { pollMs: 60_000, timeoutMs: 5000 });
      const fast = await partnerWithReceiver("Notified Partner", 0);
      // The first round (at start) has run; the next poll is a minute away.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const placed = await fast.place();
      const at = await arrival(fast.receiver, placed.id, Date.now() + 10_000);
      expect(at - placed.at).toBeLessThan(1000);
    },
    30_000,
  );
});

/** The claim the worker's slots rely on, read straight from the store (the worker is off). */
describe.each(storeKinds)("claiming by partner (%s store)", (kind) => {
  it("takes turns by partner, skips the partners named, and takes a handed-back claim again as a first attempt", async () => {
    const gw = await startGateway({
      store: kind,
      config: { webhooks: { ...loadConfig({}).webhooks, pollMs: 0 } },
    });
    cleanups.push(() => gw.close());
    const at = Date.now() - 1000;
    /** A partner with `endpoints` endpoints, each with `due` test events queued. */
    const partnerWith = async (name: string, endpoints: number, due: number) => {
      const partner = await createPartner(gw, undefined, name);
      const record = await gw.store.findPartnerByClientId(partner.clientId);
      const ids: string[] = [];
      for (let e = 0; e < endpoints; e++) {
        const endpoint = await gw.webhooks.create(
          { clientId: partner.clientId },
          { url: `https://receiver.example.com/${name}/${e}`, events: ["*"] },
        );
        ids.push(endpoint.id);
        for (let i = 0; i < due; i++)
          await gw.store.webhooks.queueTestEvent({
            id: `${name}-${e}-${i}`,
            partnerId: record?.id as string,
            endpointId: endpoint.id,
            createdAt: at + i,
          });
      }
      return { id: record?.id as string, endpoints: ids };
    };
    const busy = await partnerWith("busy", 4, 3);
    const quiet = await partnerWith("quiet", 1, 1);
    const claim = (lease: string, shares: { perPartner?: number; skipPartners?: string[] }) =>
      gw.store.webhooks.claimDeliveries(Date.now(), Date.now() + 60_000, lease, 8, 2, shares);

    // The busy partner's older deliveries do not fill the claim: 2 of its, then the quiet one's.
    const first = await claim("a", { perPartner: 2 });
    expect(first).toHaveLength(3);
    expect(first.filter((d) => quiet.endpoints.includes(d.endpointId))).toHaveLength(1);
    expect(new Set(first.map((d) => d.endpointId)).size).toBe(3);
    await gw.store.webhooks.releaseClaims(first);

    // Skipped: none of the busy partner's.
    const skipping = await claim("b", { perPartner: 2, skipPartners: [busy.id] });
    expect(skipping.map((d) => d.endpointId)).toEqual(quiet.endpoints);
    // Handed back: claimed again, still its first attempt.
    expect(skipping[0]?.attempt).toBe(1);
  }, 60_000);
});
