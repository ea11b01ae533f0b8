import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { shareBudgets } from "./support/share-budgets.js";
import { openSse, type SseStream } from "./support/sse.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
} from "./support/tenants.js";
import { tracingModes, useTracing } from "./support/tracing.js";

const HANDLER_TIMEOUT_MS = 2000;
const STREAMS_PER_USER = 3;

const EVENTS = {
  heartbeatSeconds: 1,
  pollMs: 100,
  maxStreamSeconds: 3600,
  settleMs: 5000,
  recheckMs: 200,
};

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function partnerToken(base: string, partner: TestPartner): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function createOrder(base: string, partner: TestPartner, token: string, po: string) {
  const response = await fetch(`${base}/api/v1/sales-orders`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
    },
    body: JSON.stringify(order({ purchase_order_no: po })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

const streamOf = (base: string, token: string, lastEventId?: string) =>
  openSse(`${base}/v1/tenant/events`, {
    authorization: `Bearer ${token}`,
    ...(lastEventId ? { "last-event-id": lastEventId } : {}),
  });

/** Waits until the stream said where it starts (its first, id-only message). */
async function opened(stream: SseStream): Promise<SseStream> {
  for (let i = 0; i < 100 && stream.messages.length === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(stream.messages[0]?.id).toBeDefined();
  return stream;
}

// Each store, and once more with tracing on (every store call then runs in a span).
const MODES = tracingModes(storeKinds);

describe.each(MODES)("tenant event stream over a real socket ($label)", ({ kind, tracing }) => {
  useTracing({ tracing });
  let gw: Gateway;
  let base: string;
  let a: TestTenant;
  let b: TestTenant;
  let partnerA: TestPartner;
  let partnerB: TestPartner;
  const open: SseStream[] = [];

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      // A handler timeout far shorter than a stream: an open stream is not a hung handler. Not
      // shorter: the sign-ins and orders the tests make are handlers too, and at 300 ms they
      // answered 503 on a loaded machine.
      config: {
        users: TEST_USERS_CONFIG,
        events: EVENTS,
        shares: shareBudgets({ GATEWAY_EVENTS_MAX_STREAMS_PER_CLIENT: String(STREAMS_PER_USER) }),
        drainSeconds: 2,
        requestTimeoutMs: HANDLER_TIMEOUT_MS,
      },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Stream Alpha");
    b = await createTenant(gw, "Stream Beta");
    partnerA = await tenantPartner(gw, a.id, "Alpha Supplier");
    partnerB = await tenantPartner(gw, b.id, "Beta Supplier");
  });
  afterEach(async () => {
    for (const stream of open.splice(0)) {
      stream.close();
      await stream.ended;
    }
  });
  afterAll(async () => {
    await gw?.close();
  });

  const track = async (stream: Promise<SseStream>) => {
    const s = await stream;
    open.push(s);
    return s;
  };

  it("carries the tenant's order events as list summaries, and never another tenant's", async () => {
    const tokenA = await signIn(base, a.member.email);
    const tokenB = await signIn(base, b.member.email);
    const openedAt = Date.now();
    const streamA = await opened(await track(streamOf(base, tokenA)));
    const streamB = await opened(await track(streamOf(base, tokenB)));
    expect(streamA.status).toBe(200);
    expect(streamA.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(streamA.headers["x-request-id"]).toBeDefined();

    const pToken = await partnerToken(base, partnerA);
    // Past the handler timeout (what the set-up took counts).
    const past = openedAt + HANDLER_TIMEOUT_MS + 200 - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, past)));
    const created = await createOrder(base, partnerA, pToken, "PO-STREAM-1");
    const event = await streamA.next("order.created");
    const listed = await fetch(`${base}/v1/orders`, {
      headers: { authorization: `Bearer ${tokenA}` },
    });
    const summary = ((await listed.json()) as { data: { id: string }[] }).data[0];
    expect(event.data).toEqual({ order: summary });
    expect(summary?.id).toBe(created.id);

    const accept = await fetch(`${base}/v1/orders/${created.id}/accept`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokenA}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(accept.status).toBe(200);
    const accepted = await streamA.next("order.accepted");
    expect((accepted.data as { order: { status: string; version: number } }).order).toMatchObject({
      id: created.id,
      status: "accepted",
      version: 2,
    });

    // B's stream sees its own partner's order, and only that.
    const bToken = await partnerToken(base, partnerB);
    const createdB = await createOrder(base, partnerB, bToken, "PO-STREAM-B");
    const eventB = await streamB.next("order.created");
    expect((eventB.data as { order: { id: string } }).order.id).toBe(createdB.id);
    const seenByB = streamB.messages.filter((m) => m.event !== undefined);
    expect(seenByB).toHaveLength(1);
    expect(streamA.messages.some((m) => JSON.stringify(m.data ?? "").includes(createdB.id))).toBe(
      false,
    );
  });

  it("announces vocabulary changes to the tenant's streams", async () => {
    const admin = await signIn(base, a.admin.email);
    const member = await signIn(base, a.member.email);
    const stream = await opened(await track(streamOf(base, member)));
    const other = await opened(await track(streamOf(base, await signIn(base, b.member.email))));
    const put = await fetch(`${base}/v1/tenant/i18n-config/common`, {
      method: "PUT",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ language: "de", overrides: { app: { name: "Bestellungen" } } }),
    });
    expect(put.status).toBe(200);
    const changed = await stream.next("vocabulary.changed");
    expect(changed.data).toEqual({ namespace: "common", language: "de" });
    expect(changed.id).toMatch(/@\d+$/);
    await new Promise((r) => setTimeout(r, 300));
    expect(other.messages.filter((m) => m.event === "vocabulary.changed")).toHaveLength(0);
  });

  it("resumes with Last-Event-ID: what happened while away comes once, in order", async () => {
    const token = await signIn(base, a.member.email);
    const first = await opened(await track(streamOf(base, token)));
    const pToken = await partnerToken(base, partnerA);
    const before = await createOrder(base, partnerA, pToken, "PO-RESUME-0");
    const seen = await first.next("order.created");
    expect((seen.data as { order: { id: string } }).order.id).toBe(before.id);
    const lastId = first.lastId as string;
    first.close();
    await first.ended;

    const missed = [
      await createOrder(base, partnerA, pToken, "PO-RESUME-1"),
      await createOrder(base, partnerA, pToken, "PO-RESUME-2"),
    ];
    const resumed = await track(streamOf(base, token, lastId));
    expect(resumed.status).toBe(200);
    const got = [await resumed.next("order.created"), await resumed.next("order.created")];
    expect(got.map((e) => (e.data as { order: { id: string } }).order.id)).toEqual(
      missed.map((o) => o.id),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(resumed.messages.filter((m) => m.event === "order.created")).toHaveLength(2);
  });

  it("resumes a stream that got no event before it dropped, without losing the first", async () => {
    const token = await signIn(base, a.member.email);
    const first = await opened(await track(streamOf(base, token)));
    const startId = first.lastId as string;
    first.close();
    const pToken = await partnerToken(base, partnerA);
    const missed = await createOrder(base, partnerA, pToken, "PO-RESUME-EMPTY");
    const resumed = await track(streamOf(base, token, startId));
    const got = await resumed.next("order.created");
    expect((got.data as { order: { id: string } }).order.id).toBe(missed.id);
  });

  it("refuses a Last-Event-ID it did not send, or another tenant's event", async () => {
    const tokenA = await signIn(base, a.member.email);
    const tokenB = await signIn(base, b.member.email);
    const bogus = await streamOf(base, tokenA, "not-an-id");
    expect(bogus.status).toBe(400);
    expect(bogus.problem?.code).toBe("last_event_id_invalid");
    const streamB = await opened(await track(streamOf(base, tokenB)));
    const pToken = await partnerToken(base, partnerB);
    await createOrder(base, partnerB, pToken, "PO-FOREIGN");
    await streamB.next("order.created");
    const foreign = await streamOf(base, tokenA, streamB.lastId);
    expect(foreign.status).toBe(400);
    expect(foreign.problem?.code).toBe("last_event_id_invalid");
    const anonymous = await openSse(`${base}/v1/tenant/events`);
    expect(anonymous.status).toBe(401);
  });

  it("holds at most the configured streams per user, and sends heartbeats", async () => {
    const email = a.admin.email;
    const token = await signIn(base, email);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_USER; i++) streams.push(await track(streamOf(base, token)));
    const refused = await streamOf(base, token);
    expect(refused.status).toBe(429);
    expect(refused.problem?.code).toBe("too_many_streams");
    expect(refused.headers["retry-after"]).toBeDefined();
    for (let i = 0; i < 30 && !(streams[0] as SseStream).comments.includes("heartbeat"); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((streams[0] as SseStream).comments).toContain("heartbeat");
    (streams[0] as SseStream).close();
    await (streams[0] as SseStream).ended;
    for (let i = 0; i < 20; i++) {
      const again = await streamOf(base, token);
      if (again.status === 200) {
        open.push(again);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the closed stream's place was not given back");
  });

  it("ends a stream once its token no longer holds (the password was changed)", async () => {
    const email = b.member.email;
    const stream = await opened(await track(streamOf(base, await signIn(base, email))));
    await gw.users.setPassword(email, `${PASSWORD} changed`);
    await stream.ended;
    await gw.users.setPassword(email, PASSWORD);
  });

  it("ends open streams when the gateway closes, without waiting out the drain", async () => {
    const token = await signIn(base, b.admin.email);
    const stream = await opened(await track(streamOf(base, token)));
    const closing = gw.close();
    await stream.ended;
    // A stream holding the drain would hold close for its whole lifetime (an hour here).
    await closing;
    expect(gw.streams.open).toBe(0);
  }, 20_000);
});

describe.runIf(storeKinds.includes("postgres"))(
  "tenant event stream across two gateway instances on one PostgreSQL database",
  () => {
    let a: Gateway & { dir: string };
    let b: Gateway;
    let baseA: string;
    let baseB: string;

    beforeAll(async () => {
      a = await startGateway({
        store: "postgres",
        config: { users: TEST_USERS_CONFIG, events: { ...EVENTS, pollMs: 60_000 } },
      });
      // The same database and master key, another process's worth of services and connections.
      b = await startGateway({
        dir: a.dir,
        config: {
          databaseUrl: a.config.databaseUrl,
          users: TEST_USERS_CONFIG,
          // Polling once a minute: only PostgreSQL's notification can bring the event in time.
          events: { ...EVENTS, pollMs: 60_000 },
        },
      });
      baseA = await a.app.listen({ port: 0, host: "127.0.0.1" });
      baseB = await b.app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("shows on a stream held by B an order created and a word changed through A", async () => {
      const tenant = await createTenant(a, "Two Instances");
      const partner = await tenantPartner(a, tenant.id, "Multi Supplier");
      const onB = await opened(await streamOf(baseB, await signIn(baseB, tenant.member.email)));
      try {
        const created = await createOrder(
          baseA,
          partner,
          await partnerToken(baseA, partner),
          "PO-AB",
        );
        const event = await onB.next("order.created");
        expect((event.data as { order: { id: string } }).order.id).toBe(created.id);

        const admin = await signIn(baseA, tenant.admin.email);
        const put = await fetch(`${baseA}/v1/tenant/i18n-config/orders`, {
          method: "PUT",
          headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
          body: JSON.stringify({ language: "en", overrides: { title: "Purchase orders" } }),
        });
        expect(put.status).toBe(200);
        const changed = await onB.next("vocabulary.changed");
        expect(changed.data).toEqual({ namespace: "orders", language: "en" });
      } finally {
        onB.close();
      }
    });
  },
);
