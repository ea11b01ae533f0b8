import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, type WebhooksConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { LogCapture, login, order, signedHeaders, startGateway, tempDir } from "./helpers.js";
import { runCaptured } from "./support/processes.js";
import { Receiver, verifyDelivery } from "./support/receiver.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
  userToken,
} from "./support/tenants.js";
import { tracingModes, useTracing } from "./support/tracing.js";

/** Delivery tuned to run in seconds: loopback receivers, quick polls, short backoff. */
const FAST: Partial<WebhooksConfig> = {
  allowPrivate: "loopback",
  pollMs: 25,
  backoffBaseMs: 50,
  backoffMaxMs: 200,
  timeoutMs: 2000,
  leaseMs: 6000,
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  gw: Gateway;
  base: string;
  tenant: TestTenant;
  partner: Awaited<ReturnType<typeof tenantPartner>>;
  adminToken: string;
  logs: LogCapture;
}

/** A listening gateway (its worker running) with a tenant, its admin and one partner. */
async function setUp(
  kind: StoreKind,
  webhooks: Partial<WebhooksConfig> = {},
  shared?: { dir: string; databaseUrl: string },
): Promise<Setup> {
  const logs = new LogCapture();
  const gw = await startGateway({
    store: kind,
    logs,
    ...(shared ? { dir: shared.dir } : {}),
    config: {
      users: TEST_USERS_CONFIG,
      webhooks: { ...loadConfig({}).webhooks, ...FAST, ...webhooks },
      ...(shared ? { databaseUrl: shared.databaseUrl } : {}),
    },
  });
  cleanups.push(() => gw.close());
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  const tenant = await createTenant(gw, `Hooks ${Math.random().toString(36).slice(2, 8)}`);
  const partner = await tenantPartner(gw, tenant.id, "Hook Partner");
  return { gw, base, tenant, partner, adminToken: await userToken(gw, tenant.admin.email), logs };
}

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  cleanups.push(() => r.stop());
  return r;
}

/** The tenant API over the socket, as the console calls it. */
async function tenantCall(s: Setup, method: string, path: string, body?: unknown) {
  const response = await fetch(`${s.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${s.adminToken}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const endpoints = (s: Setup) => `/v1/tenant/partners/${s.partner.clientId}/webhook-endpoints`;

async function addEndpoint(s: Setup, url: string, events = ["*"]) {
  const created = await tenantCall(s, "POST", endpoints(s), { url, events });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: string; secret: string };
}

/** A partner order over the socket, signed like every partner request. */
async function placeOrder(s: Setup, overrides: Record<string, unknown> = {}): Promise<string> {
  const token = await login(s.gw, s.partner);
  const response = await fetch(`${s.base}/api/v1/sales-orders`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...signedHeaders(s.partner, token, String(Math.floor(Date.now() / 1000))),
    },
    body: JSON.stringify(order(overrides)),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** Polls the tenant API until `test` holds for the endpoint (delivery runs on its own). */
async function eventually<T>(read: () => Promise<T>, test: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (test(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("condition never held");
}

// Each store, and once more with tracing on (every store call then runs in a span).
const MODES = tracingModes(storeKinds);

describe.each(MODES)("webhook delivery ($label)", ({ kind, tracing }) => {
  useTracing({ tracing });
  it("signs every delivery so the documented recipe verifies it, with the order as it was at the event", async () => {
    const s = await setUp(kind);
    const r = await receiver();
    const endpoint = await addEndpoint(s, r.url);
    const orderId = await placeOrder(s, { purchase_order_no: "PO-HOOK-1" });
    const accepted = await tenantCall(s, "POST", `/v1/orders/${orderId}/accept`, {});
    expect(accepted.status).toBe(200);
    await r.until((got) => got.length >= 2);

    // Deliveries run side by side: the two events may arrive in either order (api.md says so).
    const created = r.received.find((d) => d.body.type === "order.created");
    const accept = r.received.find((d) => d.body.type === "order.accepted");
    if (!created || !accept) throw new Error("missing delivery");
    for (const delivery of [created, accept]) {
      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(delivery.headers["orderline-event-id"]).toBe(delivery.body.id);
      expect(delivery.headers["orderline-event-type"]).toBe(delivery.body.type);
      const header = delivery.headers["orderline-signature"] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyDelivery(header, delivery.raw, endpoint.secret)).toBe(true);
      // Another secret, a changed byte or a timestamp outside the replay window do not verify.
      expect(verifyDelivery(header, delivery.raw, `${endpoint.secret}x`)).toBe(false);
      const tampered = Buffer.from(delivery.raw);
      const at = tampered.length - 2;
      tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
      expect(verifyDelivery(header, tampered, endpoint.secret)).toBe(false);
      const t = Number(/t=(\d+)/.exec(header)?.[1]);
      expect(verifyDelivery(header, delivery.raw, endpoint.secret, t + 301)).toBe(false);
      expect(delivery.body.id).toMatch(/^evt_[0-9a-f-]{36}$/);
    }
    expect(created?.body).toMatchObject({
      type: "order.created",
      data: {
        order: {
          id: orderId,
          status: "received",
          version: 1,
          purchase_order_no: "PO-HOOK-1",
          client_id: s.partner.clientId,
        },
      },
    });
    expect(created?.body.data).not.toHaveProperty("change");
    expect(accept?.body).toMatchObject({
      type: "order.accepted",
      data: {
        order: { id: orderId, status: "accepted", version: 2 },
        change: { from: "received", to: "accepted", reason: null, by: "tenant_user" },
      },
    });
    const history = (accept.body.data.order as { history: { actor: { name: unknown } }[] }).history;
    expect(history).toHaveLength(2);
    // A partner never sees the tenant user's email, in webhooks as in the API.
    expect(history[1]?.actor.name).toBeNull();

    // The receiver has both; the second attempt may still be being recorded.
    const attempts = await eventually(
      () => tenantCall(s, "GET", `${endpoints(s)}/${endpoint.id}/deliveries`),
      (res) => res.body.data.length === 2,
    );
    // Attempts recorded in one batch share their time, so either may be listed first.
    expect(attempts.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event_id: accept?.body.id,
          event_type: "order.accepted",
          attempt: 1,
          status: "succeeded",
          response_status: 204,
          error: null,
        }),
        expect.objectContaining({ event_id: created?.body.id, status: "succeeded" }),
      ]),
    );
    const listed = await tenantCall(s, "GET", endpoints(s));
    expect(listed.body.data[0]).toMatchObject({ failing_since: null });
    expect(listed.body.data[0].last_success_at).not.toBeNull();
  });

  it("delivers only the subscribed types, and signs with both secrets during a rotation", async () => {
    const s = await setUp(kind);
    const r = await receiver();
    const endpoint = await addEndpoint(s, r.url, ["order.rejected"]);
    const rotated = await tenantCall(s, "POST", `${endpoints(s)}/${endpoint.id}/secret`);
    const orderId = await placeOrder(s);
    await tenantCall(s, "POST", `/v1/orders/${orderId}/reject`, { reason: "Out of stock" });
    await r.until((got) => got.length >= 1);
    const [delivery] = r.received;
    expect(delivery?.body).toMatchObject({
      type: "order.rejected",
      data: { change: { reason: "Out of stock", by: "tenant_user" } },
    });
    const header = delivery?.headers["orderline-signature"] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(
      verifyDelivery(
        header,
        delivery?.raw as Buffer,
        (rotated.body.data as { secret: string }).secret,
      ),
    ).toBe(true);
    expect(verifyDelivery(header, delivery?.raw as Buffer, endpoint.secret)).toBe(true);
    // The created event was not subscribed to: nothing else arrives.
    expect(r.received.map((d) => d.body.type)).toEqual(["order.rejected"]);
  });

  it("retries a receiver that is down and delivers once it is back", async () => {
    const s = await setUp(kind);
    const r = await receiver();
    const port = r.port;
    await r.stop();
    const endpoint = await addEndpoint(s, r.url);
    await placeOrder(s);
    const deliveries = `${endpoints(s)}/${endpoint.id}/deliveries`;
    const failed = await eventually(
      () => tenantCall(s, "GET", deliveries),
      (res) => res.body.data.length >= 3,
    );
    expect(failed.body.data.every((a: { status: string }) => a.status === "failed")).toBe(true);
    expect(failed.body.data[0]).toMatchObject({ response_status: null });
    expect(failed.body.data[0].error).toMatch(/ECONNREFUSED/);
    const failing = await tenantCall(s, "GET", endpoints(s));
    expect(failing.body.data[0].failing_since).not.toBeNull();

    await r.start(port);
    await r.until((got) => got.length >= 1);
    const done = await eventually(
      () => tenantCall(s, "GET", deliveries),
      (res) => res.body.data[0]?.status === "succeeded",
    );
    expect(done.body.data[0].attempt).toBeGreaterThanOrEqual(4);
    expect(r.received).toHaveLength(1);
    const healed = await tenantCall(s, "GET", endpoints(s));
    expect(healed.body.data[0]).toMatchObject({ failing_since: null, enabled: true });
  });

  it("disables an endpoint that keeps failing past the window and reports it", async () => {
    const s = await setUp(kind, { disableAfterSeconds: 1 });
    const r = await receiver();
    r.answer = () => 500;
    const endpoint = await addEndpoint(s, r.url);
    await placeOrder(s);
    const disabled = await eventually(
      () => tenantCall(s, "GET", endpoints(s)),
      (res) => res.body.data[0]?.enabled === false,
    );
    expect(disabled.body.data[0].disabled_reason).toBe("Disabled after 1 s of failed deliveries.");
    // On the tenant's audit trail too, as the gateway's own doing: written just after the
    // endpoint is disabled, so a read right after seeing it disabled can come too early.
    const trail = await eventually(
      () =>
        s.gw.store.audit.listAuditEvents(s.tenant.id, {
          limit: 5,
          filter: { action: "webhook_endpoint_disabled" },
        }),
      (events) => events.length > 0,
    );
    expect(s.logs.text).toContain('"event":"webhook_endpoint_disabled"');
    expect(trail[0]).toMatchObject({
      actorKind: "system",
      subjectType: "webhook_endpoint",
      subjectId: endpoint.id,
    });
    const attempts = await tenantCall(s, "GET", `${endpoints(s)}/${endpoint.id}/deliveries`);
    expect(attempts.body.data[0]).toMatchObject({ status: "failed", response_status: 500 });

    // Disabled: nothing more is attempted. Enabled again with a healthy receiver: delivered.
    const seen = r.received.length;
    r.answer = () => 200;
    const enabled = await tenantCall(s, "PATCH", `${endpoints(s)}/${endpoint.id}`, {
      enabled: true,
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, failing_since: null });
    await r.until((got) => got.length > seen);
    await eventually(
      () => tenantCall(s, "GET", endpoints(s)),
      (res) => res.body.data[0]?.last_success_at !== null,
    );
  });

  it("gives a delivery up after the retry window", async () => {
    const s = await setUp(kind, { retryWindowSeconds: 1 });
    const r = await receiver();
    r.answer = () => 503;
    await addEndpoint(s, r.url);
    await placeOrder(s);
    await eventually(
      async () => s.logs.text,
      (text) => text.includes('"event":"webhook_delivery_gave_up"'),
    );
    const seen = r.received.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received.length).toBe(seen);
  });

  it("resends an event with the admin CLI, and lists attempts there", async () => {
    const s = await setUp(kind);
    const r = await receiver();
    const endpoint = await addEndpoint(s, r.url, ["order.created"]);
    await placeOrder(s);
    await r.until((got) => got.length === 1);
    const eventId = r.received[0]?.body.id as string;

    const cli = async (...argv: string[]) => {
      const { code, output } = await runCaptured([...argv, "--db", s.gw.config.databaseUrl], {
        env: { GATEWAY_DATA_DIR: s.gw.config.dataDir, GATEWAY_MASTER_KEY: undefined },
        cwd: s.gw.config.dataDir,
      });
      return { code, out: output };
    };
    const resent = await cli("webhooks", "resend", s.partner.clientId, endpoint.id, eventId);
    expect(resent.code, resent.out).toBe(0);
    await r.until((got) => got.length === 2);
    expect(r.received[1]?.body.id).toBe(eventId);
    expect(r.received[1]?.raw.equals(r.received[0]?.raw as Buffer)).toBe(true);

    await eventually(
      () => s.gw.store.webhooks.listAttempts(endpoint.id, 10),
      (attempts) => attempts.length === 2,
    );
    const listed = await cli("webhooks", "deliveries", s.partner.clientId, endpoint.id, "--json");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toHaveLength(2);
    const unknown = await cli("webhooks", "resend", s.partner.clientId, endpoint.id, "evt_nope");
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain("No event 'evt_nope'");
  });
});

describe("webhook delivery from two instances on one PostgreSQL store", () => {
  it.runIf(storeKinds.includes("postgres"))(
    "never delivers the same event from both at the same time, and delivers every one",
    async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const shared = { dir, databaseUrl: await freshDatabaseUrl("postgres", dir) };
      const one = await setUp("postgres", {}, shared);
      const two = await startGateway({
        store: "postgres",
        dir,
        config: {
          users: TEST_USERS_CONFIG,
          databaseUrl: shared.databaseUrl,
          webhooks: { ...loadConfig({}).webhooks, ...FAST },
        },
      });
      cleanups.push(() => two.close());
      await two.app.listen({ port: 0, host: "127.0.0.1" });
      const r = await receiver();
      r.delayMs = 40;
      await addEndpoint(one, r.url);
      const count = 40;
      await Promise.all(Array.from({ length: count }, () => placeOrder(one)));
      await r.until((got) => new Set(got.map((d) => d.body.id)).size >= count, `${count} events`);
      expect(r.maxConcurrentPerEvent).toBe(1);
      const ids = r.received.map((d) => d.body.id);
      expect(new Set(ids).size).toBe(count);
      expect(ids).toHaveLength(count);
    },
  );
});
