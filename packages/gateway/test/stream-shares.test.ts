/**
 * Event streams within their shares, over real sockets on both stores, with a victim tenant
 * beside the attacker: stream places nest instance → tenant → partner/user (a tenant's partners
 * count against it), partners per tenant are bounded and cannot share a key, stream opens are
 * rated, a replay is capped and cheap in store reads, and a change of a partner's or user's
 * credentials ends their open streams at once (not at the minute's re-check).
 */
import type { KeyObject } from "node:crypto";
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { createGateway, type Gateway } from "../src/gateway.js";
import { createLogger } from "../src/http/logger.js";
import { newId } from "../src/lib/random.js";
import { scrape } from "../src/observability/metrics.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import {
  order,
  type RsaKeys,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";
import { shareBudgets } from "./support/share-budgets.js";
import { openSse, type SseStream } from "./support/sse.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
} from "./support/tenants.js";
import { startVictim, starvedAbove } from "./support/victim.js";

const EVENTS = {
  heartbeatSeconds: 15,
  pollMs: 100,
  maxStreamSeconds: 3600,
  settleMs: 5000,
  // The default: a stream that ends sooner than this was ended by the change's signal.
  recheckMs: 60_000,
};
const PER_TENANT = 4;
const PER_PARTY = 2;
const PARTNERS_PER_TENANT = 3;
const REPLAY = 5;
const OPENS_PER_PARTY = 12;
/** What the issue asks of revocation is 2 s; this bound only tells a signal from a re-check. */
const REVOCATION_BOUND_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => String(Math.floor(Date.now() / 1000));

async function signIn(base: string, email: string): Promise<string> {
  const answer = await httpRequest(base, "POST", "/v1/auth/login", {
    body: { email, password: PASSWORD },
  });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

async function partnerToken(base: string, partner: TestPartner): Promise<string> {
  const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
    body: { client_id: partner.clientId, client_secret: partner.clientSecret },
  });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

const asUser = (base: string, token: string, method: string, path: string, body?: unknown) =>
  httpRequest(base, method, path, {
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body }),
  });

/** A partner made by the tenant's admin over the tenant API. */
async function adminMadePartner(
  base: string,
  adminToken: string,
  name: string,
  keys: RsaKeys,
): Promise<TestPartner> {
  const made = await asUser(base, adminToken, "POST", "/v1/tenant/partners", {
    name,
    public_key: keys.publicPem,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const data = made.body.data as { client_id: string; client_secret: string; key_id: string };
  return {
    clientId: data.client_id,
    clientSecret: data.client_secret,
    keys,
    keyId: data.key_id,
  };
}

async function createOrder(base: string, partner: TestPartner, token: string, po: string) {
  const answer = await httpRequest(base, "POST", "/api/v1/sales-orders", {
    headers: signedHeaders(partner, token, now()),
    body: order({ purchase_order_no: po }),
  });
  expect(answer.status).toBe(201);
  return answer.body.data as { id: string };
}

const partnerStream = (
  base: string,
  partner: TestPartner,
  token: string,
  options: { lastEventId?: string; key?: KeyObject } = {},
) =>
  openSse(`${base}/api/v1/events/stream`, {
    ...signedHeaders(partner, token, now(), options.key),
    ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}),
  });

const userStream = (base: string, token: string, lastEventId?: string) =>
  openSse(`${base}/v1/tenant/events`, {
    authorization: `Bearer ${token}`,
    ...(lastEventId ? { "last-event-id": lastEventId } : {}),
  });

async function opened(stream: SseStream): Promise<SseStream> {
  expect(stream.status, JSON.stringify(stream.problem)).toBe(200);
  for (let i = 0; i < 100 && stream.messages.length === 0; i++) await sleep(50);
  expect(stream.messages[0]?.id).toBeDefined();
  return stream;
}

/** How long after `since` the server ended `stream` (throws past `boundMs`). */
async function endedAfter(stream: SseStream, since: number, boundMs: number): Promise<number> {
  const ended = await Promise.race([
    stream.ended.then(() => true),
    sleep(boundMs).then(() => false),
  ]);
  if (!ended) throw new Error(`the stream was still open ${boundMs} ms after the change`);
  return Math.round(performance.now() - since);
}

/** The value of one series of the process's registry (0 when absent). */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  for (const line of (await scrape()).body.split("\n")) {
    const match = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const has = Object.fromEntries(
      [...(match[2] as string).matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) return Number(match[3]);
  }
  return 0;
}

const streamsAnswered = (route: string) =>
  metric("orderline_http_requests_total", { route, method: "GET", status_class: "2xx" });

const announced = (label: string, figure: number) =>
  // The figures the report quotes (the machine's load varies: the assertions are generous).
  console.log(`[stream-shares] ${label}: ${figure}`);

describe.each(storeKinds)("event streams within their shares (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let attacker: TestTenant;
  let victim: TestTenant;
  /** The attacker tenant's partners, made by its admin in the first test. */
  const shells: TestPartner[] = [];
  const open: SseStream[] = [];
  const track = async (stream: Promise<SseStream>) => {
    const s = await stream;
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      config: {
        users: TEST_USERS_CONFIG,
        events: EVENTS,
        shares: shareBudgets({
          GATEWAY_EVENTS_MAX_STREAMS: "40",
          GATEWAY_EVENTS_MAX_STREAMS_PER_TENANT: String(PER_TENANT),
          GATEWAY_EVENTS_MAX_STREAMS_PER_CLIENT: String(PER_PARTY),
          GATEWAY_SHARE_PARTNERS_PER_TENANT: String(PARTNERS_PER_TENANT),
          GATEWAY_EVENTS_MAX_REPLAY: String(REPLAY),
          GATEWAY_SHARE_STREAM_OPENS_PER_PARTY: String(OPENS_PER_PARTY),
        }),
      },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    attacker = await createTenant(gw, "Attacker Co");
    victim = await createTenant(gw, "Victim Co");
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

  it("bounds a tenant's partners and refuses a key another of its partners has", async () => {
    const admin = await signIn(base, attacker.admin.email);
    const [k1, k2, k3, k4] = [rsaKeys(), rsaKeys(), rsaKeys(), rsaKeys()] as RsaKeys[];
    const first = await adminMadePartner(base, admin, "Shell 1", k1 as RsaKeys);
    shells.push(first);
    const sameKey = await asUser(base, admin, "POST", "/v1/tenant/partners", {
      name: "Shell 1 again",
      public_key: k1?.publicPem,
    });
    expect(sameKey.status).toBe(422);
    expect(sameKey.body.code).toBe("partner_key_in_use");
    expect(sameKey.body.detail).toContain(first.clientId);
    const second = await adminMadePartner(base, admin, "Shell 2", k2 as RsaKeys);
    shells.push(second);
    const borrowed = await asUser(
      base,
      admin,
      "POST",
      `/v1/tenant/partners/${second.clientId}/keys`,
      { public_key: k1?.publicPem },
    );
    expect(borrowed.body.code).toBe("partner_key_in_use");
    await adminMadePartner(base, admin, "Shell 3", k3 as RsaKeys);
    const over = await asUser(base, admin, "POST", "/v1/tenant/partners", {
      name: "Shell 4",
      public_key: k4?.publicPem,
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: "partner_limit", share_level: "tenant" });
    const listed = await asUser(base, admin, "GET", "/v1/tenant/partners");
    expect(listed.body.data).toHaveLength(PARTNERS_PER_TENANT);
    // Another tenant's partner may have the same key pair (one company, two customers).
    const victimAdmin = await signIn(base, victim.admin.email);
    await adminMadePartner(base, victimAdmin, "Victim's supplier", k1 as RsaKeys);
  });

  it("counts partner streams against their tenant: another tenant still opens streams", async () => {
    const partners = shells.slice(0, 2);
    expect(partners).toHaveLength(2);
    const partnerRoute = "/api/v1/events/stream";
    const answeredBefore = await streamsAnswered(partnerRoute);
    // PER_PARTY streams for each of two partners: the tenant's whole share.
    for (const partner of partners) {
      const token = await partnerToken(base, partner);
      for (let i = 0; i < PER_PARTY; i++)
        await opened(await track(partnerStream(base, partner, token)));
    }
    expect(await metric("orderline_share_held", { share: "streams" })).toBe(PER_TENANT);
    expect(await streamsAnswered(partnerRoute)).toBe(answeredBefore + PER_TENANT);

    // The tenant's own console is refused at the tenant level: its partners hold the share.
    const console = await userStream(base, await signIn(base, attacker.member.email));
    expect(console.status).toBe(429);
    expect(console.problem).toMatchObject({ code: "too_many_streams", share_level: "tenant" });
    expect(Number(console.headers["retry-after"])).toBeGreaterThan(0);

    // The victim tenant's console and partner open theirs.
    const victimConsole = await opened(
      await track(userStream(base, await signIn(base, victim.member.email))),
    );
    const victimPartner = await tenantPartner(gw, victim.id, "Victim Partner Stream");
    await opened(
      await track(partnerStream(base, victimPartner, await partnerToken(base, victimPartner))),
    );
    expect(victimConsole.status).toBe(200);
    expect(await metric("orderline_share_held", { share: "streams" })).toBe(PER_TENANT + 2);

    // Streams the clients close give their places back, and are not counted twice.
    for (const stream of open.splice(0)) {
      stream.close();
      await stream.ended;
    }
    for (let i = 0; i < 40 && (await metric("orderline_share_held", { share: "streams" })) > 0; i++)
      await sleep(50);
    expect(await metric("orderline_share_held", { share: "streams" })).toBe(0);
    expect(await streamsAnswered(partnerRoute)).toBe(answeredBefore + PER_TENANT + 1);
  });

  it("rates stream opens per partner: 429 with Retry-After, another partner unaffected", async () => {
    const partner = await tenantPartner(gw, victim.id, "Reconnect Loop");
    const token = await partnerToken(base, partner);
    for (let i = 0; i < OPENS_PER_PARTY; i++) {
      const stream = await opened(await partnerStream(base, partner, token));
      stream.close();
      await stream.ended;
    }
    const refused = await partnerStream(base, partner, token);
    expect(refused.status).toBe(429);
    expect(refused.problem).toMatchObject({
      code: "rate_limited",
      share: "stream_opens",
      share_level: "party",
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const other = await tenantPartner(gw, victim.id, "Patient Partner");
    await opened(await track(partnerStream(base, other, await partnerToken(base, other))));
  });

  it("replays at most the replay share, says so, and goes on from now", async () => {
    const tenant = await createTenant(gw, `Replay Co ${kind}`);
    const partner = await tenantPartner(gw, tenant.id, "Replay Partner");
    const token = await partnerToken(base, partner);
    const made: string[] = [];
    for (let i = 0; i < REPLAY + 3; i++)
      made.push((await createOrder(base, partner, token, `PO-REPLAY-${i}`)).id);

    const replay = await opened(
      await track(partnerStream(base, partner, token, { lastEventId: "-" })),
    );
    for (let i = 0; i < 100 && !replay.comments.some((c) => c.startsWith("replay-truncated")); i++)
      await sleep(50);
    const events = replay.messages.filter((m) => m.event !== undefined);
    // The oldest REPLAY events, then the notice and where the stream stands: the newest event.
    expect(
      events.map((m) => (m.data as { data: { order: { id: string } } }).data.order.id),
    ).toEqual(made.slice(0, REPLAY));
    expect(replay.comments.find((c) => c.startsWith("replay-truncated"))).toContain(String(REPLAY));
    const newestId = replay.lastId;
    expect(newestId).not.toBe(events.at(-1)?.id);
    for (let i = 0; i < REPLAY; i++) await replay.next("order.created");
    const live = await createOrder(base, partner, token, "PO-REPLAY-LIVE");
    const next = await replay.next("order.created");
    expect((next.data as { data: { order: { id: string } } }).data.order.id).toBe(live.id);

    // Resuming from the notice's id replays nothing of what was skipped.
    const resumed = await opened(
      await track(partnerStream(base, partner, token, { lastEventId: newestId as string })),
    );
    const again = await resumed.next("order.created");
    expect((again.data as { data: { order: { id: string } } }).data.order.id).toBe(live.id);

    // The console's stream has the same cap.
    const console = await opened(
      await track(userStream(base, await signIn(base, tenant.member.email), "-@0")),
    );
    for (let i = 0; i < 100 && !console.comments.some((c) => c.startsWith("replay-truncated")); i++)
      await sleep(50);
    expect(console.messages.filter((m) => m.event === "order.created")).toHaveLength(REPLAY);
    expect(console.comments.some((c) => c.startsWith("replay-truncated"))).toBe(true);
  });

  it("ends a partner's streams when its key is revoked or it is disabled, a member's when disabled", async () => {
    const tenant = await createTenant(gw, `Revoking Co ${kind}`);
    const admin = await signIn(base, tenant.admin.email);
    const [keyA, keyB] = [rsaKeys(), rsaKeys()] as RsaKeys[];
    const partner = await adminMadePartner(base, admin, "Revoked Partner", keyA as RsaKeys);
    const added = await asUser(
      base,
      admin,
      "POST",
      `/v1/tenant/partners/${partner.clientId}/keys`,
      {
        public_key: keyB?.publicPem,
      },
    );
    expect(added.status).toBe(201);
    const token = await partnerToken(base, partner);
    const signedA = await opened(await track(partnerStream(base, partner, token)));
    const signedB = await opened(
      await track(partnerStream(base, partner, token, { key: keyB?.privateKey })),
    );
    const answered = await streamsAnswered("/api/v1/events/stream");

    let since = performance.now();
    const revoked = await asUser(
      base,
      admin,
      "DELETE",
      `/v1/tenant/partners/${partner.clientId}/keys/${partner.keyId}`,
    );
    expect(revoked.status).toBe(204);
    announced(
      `${kind} key revoked → stream ended (ms)`,
      await endedAfter(signedA, since, REVOCATION_BOUND_MS),
    );
    // Only what the revoked key signed ends.
    await sleep(500);
    expect(signedB.messages.length).toBeGreaterThan(0);
    let bEnded = false;
    void signedB.ended.then(() => {
      bEnded = true;
    });
    await sleep(10);
    expect(bEnded).toBe(false);

    since = performance.now();
    const disabled = await asUser(base, admin, "PATCH", `/v1/tenant/partners/${partner.clientId}`, {
      status: "disabled",
    });
    expect(disabled.status).toBe(200);
    announced(
      `${kind} partner disabled → stream ended (ms)`,
      await endedAfter(signedB, since, REVOCATION_BOUND_MS),
    );
    // A stream the server ends is counted once, when it opened.
    expect(await streamsAnswered("/api/v1/events/stream")).toBe(answered);

    const memberStream = await opened(
      await track(userStream(base, await signIn(base, tenant.member.email))),
    );
    since = performance.now();
    const off = await asUser(base, admin, "PATCH", `/v1/tenant/users/${tenant.member.id}`, {
      disabled: true,
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    announced(
      `${kind} member disabled → stream ended (ms)`,
      await endedAfter(memberStream, since, REVOCATION_BOUND_MS),
    );
  });
});

describe.runIf(storeKinds.includes("postgres"))(
  "revocation reaches a stream held by another instance (PostgreSQL)",
  () => {
    let a: Gateway & { dir: string };
    let b: Gateway;
    let baseA: string;
    let baseB: string;

    beforeAll(async () => {
      a = await startGateway({
        store: "postgres",
        config: { users: TEST_USERS_CONFIG, events: EVENTS },
      });
      // B caches partners for a minute: only the signal can make it read the change in time.
      b = await startGateway({
        dir: a.dir,
        config: {
          databaseUrl: a.config.databaseUrl,
          users: TEST_USERS_CONFIG,
          events: EVENTS,
          partnerCacheMs: 60_000,
        },
      });
      baseA = await a.app.listen({ port: 0, host: "127.0.0.1" });
      baseB = await b.app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it("ends B's streams of a partner disabled and of a member disabled through A", async () => {
      const tenant = await createTenant(a, "Two Instance Revocation");
      const admin = await signIn(baseA, tenant.admin.email);
      const partner = await adminMadePartner(baseA, admin, "Remote Partner", rsaKeys());
      const onB = await opened(
        await partnerStream(baseB, partner, await partnerToken(baseB, partner)),
      );
      const memberOnB = await opened(
        await userStream(baseB, await signIn(baseB, tenant.member.email)),
      );
      try {
        let since = performance.now();
        const disabled = await asUser(
          baseA,
          admin,
          "PATCH",
          `/v1/tenant/partners/${partner.clientId}`,
          {
            status: "disabled",
          },
        );
        expect(disabled.status).toBe(200);
        announced(
          "postgres partner disabled on A → stream on B ended (ms)",
          await endedAfter(onB, since, REVOCATION_BOUND_MS),
        );
        since = performance.now();
        const off = await asUser(baseA, admin, "PATCH", `/v1/tenant/users/${tenant.member.id}`, {
          disabled: true,
        });
        expect(off.status).toBe(200);
        announced(
          "postgres member disabled on A → stream on B ended (ms)",
          await endedAfter(memberOnB, since, REVOCATION_BOUND_MS),
        );
      } finally {
        onB.close();
        memberOnB.close();
      }
    });
  },
);

/** Reads the event streams may make, counted as statements (eventOrders is three). */
let storeReads = 0;
const READS: Record<string, Record<string, number>> = {
  events: { eventsAfter: 1, eventOrders: 3, latestEvents: 1, latestEventId: 1, eventSeq: 1 },
  top: { findOrder: 1, orderHistory: 1, findPartnerByClientId: 1, listPartnerKeys: 1 },
  webhooks: { orderEvents: 1 },
  tenants: { findTenantOrder: 1, partnerTenant: 1 },
};

/** The store with those reads counted (the real store does the work). */
function countingReads(store: Store): Store {
  const counted = <T extends object>(target: T, costs: Record<string, number>): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        const cost = typeof property === "string" ? costs[property] : undefined;
        if (typeof value !== "function") return value;
        if (cost === undefined) return value.bind(object);
        return (...args: unknown[]) => {
          storeReads += cost;
          return value.apply(object, args);
        };
      },
    });
  const parts = {
    events: counted(store.events, READS.events as Record<string, number>),
    webhooks: counted(store.webhooks, READS.webhooks as Record<string, number>),
    tenants: counted(store.tenants, READS.tenants as Record<string, number>),
  };
  const top = counted(store, READS.top as Record<string, number>);
  return new Proxy(top, {
    get: (object, property, receiver) =>
      property in parts
        ? parts[property as keyof typeof parts]
        : Reflect.get(object, property, receiver),
  });
}

/** Events in the attacker's history: more than the default replay share (1,000). */
const HISTORY = 1100;
const FLOOD_MS = 8000;
/** What the issue asks is < 100 ms; this bound holds on a loaded 2-core machine too. */
const VICTIM_P50_BOUND_MS = 300;

describe.each(storeKinds)("a replay flood beside a victim tenant (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let attacker: TestTenant;
  let hoarder: TestPartner;

  let raw: Store;

  beforeAll(async () => {
    const dir = tempDir().dir;
    // The default shares: what an operator runs with.
    const config = loadConfig(
      { GATEWAY_MASTER_KEY: undefined },
      {
        databaseUrl: await freshDatabaseUrl(kind, dir),
        dataDir: dir,
        drainSeconds: 0,
        users: TEST_USERS_CONFIG,
        events: EVENTS,
      },
    );
    raw = await openStore(config.databaseUrl);
    gw = await createGateway({ config, store: countingReads(raw), logger: createLogger("silent") });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    attacker = await createTenant(gw, "Flooding Co");
    hoarder = await tenantPartner(gw, attacker.id, "History Hoarder");
    const record = await gw.store.findPartnerByClientId(hoarder.clientId);
    // The history written straight to the store: HTTP would only make the set-up slower.
    const at = Date.now();
    for (let i = 0; i < HISTORY; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, HISTORY - i) }, (_, j) =>
          gw.store.createOrder({
            id: newId(at + i + j),
            partnerId: record?.id as string,
            purchaseOrderNo: `PO-HISTORY-${i + j}`,
            customerCode: "CUST-001",
            siteCode: "SITE-01",
            salesName: "Dana Sales",
            address: "1 Harbour Road, Springfield",
            products: [{ product_code: "SKU-1", quantity: 3, uom: "EA", unit_price: 1250 }],
            status: "received",
            createdAt: at + i + j,
          }),
        ),
      );
  }, 180_000);
  afterAll(async () => {
    await gw?.close();
    await raw?.close();
  });

  /**
   * One replay as an attacker's client takes it: opens, reads the bytes without parsing them
   * (the gateway's CPU is what is measured, not the test's) up to the replay's notice, and
   * drops the connection. The bytes sent, or "refused" (429).
   */
  function replayOnce(path: string, headers: () => Record<string, string>) {
    return new Promise<number | "refused">((resolve, reject) => {
      const req = request(new URL(path, base), { agent: false, headers: headers() }, (res) => {
        if (res.statusCode === 429) {
          res.resume();
          resolve("refused");
          return;
        }
        let bytes = 0;
        let tail = "";
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          const text = tail + chunk.toString("latin1");
          if (text.includes(": replay-truncated")) {
            req.destroy();
            resolve(bytes);
          }
          tail = text.slice(-40);
        });
        res.on("close", () => resolve(bytes));
      });
      req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
  }

  it("costs fewer than 3 store reads per replayed event", async () => {
    const token = await partnerToken(base, hoarder);
    const before = storeReads;
    const stream = await partnerStream(base, hoarder, token, { lastEventId: "-" });
    for (let i = 0; i < 600 && !stream.comments.some((c) => c.startsWith("replay-truncated")); i++)
      await sleep(25);
    stream.close();
    await stream.ended;
    const reads = storeReads - before;
    const replayed = stream.messages.filter((m) => m.event !== undefined).length;
    expect(replayed).toBe(1000);
    announced(`${kind} store reads for a replay of ${replayed} events`, reads);
    expect(reads / replayed).toBeLessThan(3);
    // Reads by the page (one of the page, three of its orders, 100 events to a page), not by
    // the event; what opening the stream and the live feed read is counted too.
    expect(reads).toBeLessThan(replayed / 10);
  });

  it("keeps another tenant's order creation fast while replays are reopened in a loop", async () => {
    const victim = await startVictim(gw, base, `Replay Victim ${kind}`);
    const quiet = await victim.during(() => sleep(1500), { minOrders: 20 });
    const partnerToken1 = await partnerToken(base, hoarder);
    const admin = await signIn(base, attacker.admin.email);
    const member = await signIn(base, attacker.member.email);
    const partnerHeaders = () => ({
      ...signedHeaders(hoarder, partnerToken1, now()),
      "last-event-id": "-",
    });
    const userHeaders = (token: string) => () => ({
      authorization: `Bearer ${token}`,
      "last-event-id": "-@0",
    });
    const clients: [string, () => Record<string, string>][] = [
      ["/api/v1/events/stream", partnerHeaders],
      ["/api/v1/events/stream", partnerHeaders],
      ["/v1/tenant/events", userHeaders(admin)],
      ["/v1/tenant/events", userHeaders(member)],
    ];
    let replays = 0;
    let refusals = 0;
    let bytes = 0;
    const flood = async () => {
      const until = Date.now() + FLOOD_MS;
      await Promise.all(
        clients.map(async ([path, headers]) => {
          while (Date.now() < until) {
            const sent = await replayOnce(path, headers);
            if (sent === "refused") {
              refusals += 1;
              await sleep(20);
            } else {
              replays += 1;
              bytes += sent;
            }
          }
        }),
      );
    };
    const { report } = await victim.during(flood, { minOrders: 20 });
    announced(`${kind} victim p50 without attack (ms)`, Math.round(quiet.report.p50Ms));
    announced(`${kind} victim p95 without attack (ms)`, Math.round(quiet.report.p95Ms));
    announced(`${kind} victim p50 during replay flood (ms)`, Math.round(report.p50Ms));
    announced(`${kind} victim p95 during replay flood (ms)`, Math.round(report.p95Ms));
    announced(`${kind} replays served in ${FLOOD_MS} ms`, replays);
    announced(`${kind} stream opens refused`, refusals);
    announced(`${kind} MB replayed`, Math.round(bytes / 1e5) / 10);
    expect(report.failures).toEqual([]);
    expect(report.p50Ms).toBeLessThan(starvedAbove(report, VICTIM_P50_BOUND_MS));
    // The opens share: 30 a minute per party (two parties here share the partner's).
    expect(replays).toBeLessThanOrEqual(3 * 30);
  }, 120_000);
});
