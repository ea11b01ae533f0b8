import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { createPartner, order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { openSse, type SseStream } from "./support/sse.js";
import { storeKinds } from "./support/stores.js";
import { tracingModes, useTracing } from "./support/tracing.js";

const EVENTS = {
  heartbeatSeconds: 15,
  pollMs: 100,
  maxStreamSeconds: 3600,
  settleMs: 5000,
  recheckMs: 200,
};

interface Delivered {
  id: string;
  type: string;
  created_at: string;
  data: { order: { id: string; status: string; version: number }; change?: { to: string } };
}

async function partnerToken(base: string, partner: TestPartner): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
  });
  return ((await response.json()) as { token: string }).token;
}

const now = () => String(Math.floor(Date.now() / 1000));

async function createOrder(base: string, partner: TestPartner, token: string, po: string) {
  const response = await fetch(`${base}/api/v1/sales-orders`, {
    method: "POST",
    headers: { "content-type": "application/json", ...signedHeaders(partner, token, now()) },
    body: JSON.stringify(order({ purchase_order_no: po })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

async function cancelOrder(base: string, partner: TestPartner, token: string, id: string) {
  const response = await fetch(`${base}/api/v1/sales-orders/${id}/cancel`, {
    method: "POST",
    headers: { "content-type": "application/json", ...signedHeaders(partner, token, now()) },
    body: JSON.stringify({ reason: "Ordered twice" }),
  });
  expect(response.status).toBe(200);
}

/** A signed stream request (version 1 signs client_id|timestamp; the query is not covered). */
const streamOf = (
  base: string,
  partner: TestPartner,
  token: string,
  options: { query?: string; lastEventId?: string } = {},
) =>
  openSse(`${base}/api/v1/events/stream${options.query ?? ""}`, {
    ...signedHeaders(partner, token, now()),
    ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}),
  });

async function opened(stream: SseStream): Promise<SseStream> {
  for (let i = 0; i < 100 && stream.messages.length === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(stream.messages[0]?.id).toBeDefined();
  return stream;
}

// Each store, and once more with tracing on (every store call then runs in a span).
const MODES = tracingModes(storeKinds);

describe.each(MODES)("partner event stream over a real socket ($label)", ({ kind, tracing }) => {
  useTracing({ tracing });
  let gw: Gateway;
  let base: string;
  let alpha: TestPartner;
  let beta: TestPartner;
  const open: SseStream[] = [];
  const track = async (stream: Promise<SseStream>) => {
    const s = await stream;
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { events: EVENTS, partnerCacheMs: 0 } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    alpha = await createPartner(gw, undefined, "Alpha Retail");
    beta = await createPartner(gw, undefined, "Beta Retail");
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

  it("carries the partner's events with the webhook body, and never another partner's", async () => {
    const tokenA = await partnerToken(base, alpha);
    const tokenB = await partnerToken(base, beta);
    const streamA = await opened(await track(streamOf(base, alpha, tokenA)));
    const streamB = await opened(await track(streamOf(base, beta, tokenB)));
    expect(streamA.headers["content-type"]).toMatch(/^text\/event-stream/);

    const created = await createOrder(base, alpha, tokenA, "PO-P-1");
    const event = await streamA.next("order.created");
    const body = event.data as Delivered;
    expect(event.id).toBe(body.id);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: "order.created",
      data: { order: { id: created.id, status: "received", version: 1 } },
    });
    expect(body.data.change).toBeUndefined();
    await cancelOrder(base, alpha, tokenA, created.id);
    const cancelled = (await streamA.next("order.cancelled")).data as Delivered;
    expect(cancelled.data.order).toMatchObject({ status: "cancelled", version: 2 });
    expect(cancelled.data.change).toMatchObject({ to: "cancelled", by: "partner" });

    await createOrder(base, beta, tokenB, "PO-P-B");
    await streamB.next("order.created");
    expect(streamB.messages.filter((m) => m.event !== undefined)).toHaveLength(1);
    expect(streamA.messages.filter((m) => m.event !== undefined)).toHaveLength(2);
  });

  it("filters with ?events= and refuses unknown types with the webhook endpoints' message", async () => {
    const token = await partnerToken(base, alpha);
    const only = await opened(
      await track(streamOf(base, alpha, token, { query: "?events=order.cancelled" })),
    );
    const first = await createOrder(base, alpha, token, "PO-FILTER-1");
    await cancelOrder(base, alpha, token, first.id);
    const got = await only.next();
    expect(got.event).toBe("order.cancelled");
    expect(only.messages.filter((m) => m.event === "order.created")).toHaveLength(0);

    const bad = await streamOf(base, alpha, token, {
      query: "?events=order.created,order.shipped",
    });
    expect(bad.status).toBe(400);
    expect(bad.problem?.code).toBe("webhook_events_invalid");
    expect(String(bad.problem?.detail)).toContain("'order.shipped'");
  });

  it("refuses unsigned requests and foreign or unknown Last-Event-IDs", async () => {
    const token = await partnerToken(base, alpha);
    const unsigned = await openSse(`${base}/api/v1/events/stream`, {
      authorization: `Bearer ${token}`,
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.problem?.code).toBe("header_missing");

    const tokenB = await partnerToken(base, beta);
    const streamB = await opened(await track(streamOf(base, beta, tokenB)));
    await createOrder(base, beta, tokenB, "PO-FOREIGN-ID");
    const foreignId = (await streamB.next("order.created")).id as string;
    const foreign = await streamOf(base, alpha, token, { lastEventId: foreignId });
    expect(foreign.status).toBe(400);
    expect(foreign.problem?.code).toBe("last_event_id_invalid");
    const unknown = await streamOf(base, alpha, token, { lastEventId: "evt_nope" });
    expect(unknown.status).toBe(400);
  });

  it("ends a stream once its partner is disabled", async () => {
    const gamma = await createPartner(gw, undefined, "Gamma Retail");
    const stream = await opened(
      await track(streamOf(base, gamma, await partnerToken(base, gamma))),
    );
    await gw.partners.setStatus(gamma.clientId, "disabled");
    await stream.ended;
  });

  it("resumes with Last-Event-ID without losing or repeating an event", async () => {
    const token = await partnerToken(base, alpha);
    const first = await opened(await track(streamOf(base, alpha, token)));
    const seen = await createOrder(base, alpha, token, "PO-RES-0");
    expect(((await first.next("order.created")).data as Delivered).data.order.id).toBe(seen.id);
    const lastId = first.lastId as string;
    first.close();
    await first.ended;
    const missed = [
      await createOrder(base, alpha, token, "PO-RES-1"),
      await createOrder(base, alpha, token, "PO-RES-2"),
    ];
    const resumed = await track(streamOf(base, alpha, token, { lastEventId: lastId }));
    const got = [await resumed.next("order.created"), await resumed.next("order.created")];
    expect(got.map((e) => (e.data as Delivered).data.order.id)).toEqual(missed.map((o) => o.id));
    const live = await createOrder(base, alpha, token, "PO-RES-3");
    expect(((await resumed.next("order.created")).data as Delivered).data.order.id).toBe(live.id);
    expect(resumed.messages.filter((m) => m.event !== undefined)).toHaveLength(3);
  });
});

describe.runIf(storeKinds.includes("postgres"))(
  "partner event stream across two gateway instances on one PostgreSQL database",
  () => {
    let a: Gateway & { dir: string };
    let b: Gateway;
    let baseA: string;
    let baseB: string;

    beforeAll(async () => {
      const events = { ...EVENTS, pollMs: 60_000 };
      a = await startGateway({ store: "postgres", config: { events, partnerCacheMs: 0 } });
      b = await startGateway({
        dir: a.dir,
        config: { databaseUrl: a.config.databaseUrl, events, partnerCacheMs: 0 },
      });
      baseA = await a.app.listen({ port: 0, host: "127.0.0.1" });
      baseB = await b.app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("holds later events back while an earlier seq is still committing, then sends both in order", async () => {
      const partner = await createPartner(a, undefined, "Gap Retail");
      const record = await a.store.findPartnerByClientId(partner.clientId);
      const token = await partnerToken(baseA, partner);
      const stream = await opened(
        await streamOf(baseB, partner, await partnerToken(baseB, partner)),
      );
      const client = new pg.Client({ connectionString: a.config.databaseUrl });
      await client.connect();
      try {
        const first = await createOrder(baseA, partner, token, "PO-GAP-1");
        await stream.next("order.created");
        // A transaction that drew the next seq and has not committed yet.
        await client.query("BEGIN");
        await client.query(
          "INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at) VALUES ($1, $2, $3, 'order.status_changed', 'received', 'cancelled', 'late', $4)",
          [randomUUID(), record?.id, first.id, Date.now()],
        );
        const second = await createOrder(baseA, partner, token, "PO-GAP-2");
        await new Promise((r) => setTimeout(r, 1000));
        // Passing the committed later event on now would skip the earlier one for good.
        expect(stream.messages.filter((m) => m.event !== undefined)).toHaveLength(1);
        await client.query("COMMIT");
        const late = await stream.next();
        const next = await stream.next();
        expect([late.event, next.event]).toEqual(["order.cancelled", "order.created"]);
        expect((next.data as Delivered).data.order.id).toBe(second.id);
      } finally {
        await client.end();
        stream.close();
      }
    });

    it("delivers on a stream held by B the order created through A, woken by NOTIFY", async () => {
      const partner = await createPartner(a, undefined, "Two Instance Retail");
      const onB = await opened(await streamOf(baseB, partner, await partnerToken(baseB, partner)));
      try {
        const token = await partnerToken(baseA, partner);
        const created = await createOrder(baseA, partner, token, "PO-AB-P");
        const event = await onB.next("order.created");
        expect((event.data as Delivered).data.order.id).toBe(created.id);
      } finally {
        onB.close();
      }
    });
  },
);
