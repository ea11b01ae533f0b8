import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import client from "prom-client";
import type { ErrorCode } from "../problems/catalogue.js";
import { type Dialect, latestVersion } from "../store/migrations.js";
import type { Store } from "../store/store.js";

/**
 * The gateway's Prometheus metrics: one registry per process (a process is one scrape target).
 * Every label takes values from a fixed set (route templates, methods, status classes, codes of
 * the error catalogue, order statuses, outcomes): no client_id, order id or raw path. What each
 * family means is in docs/deploy.md#observability; alerts/ and the dashboard read these names.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

/** Buckets for a sub-50 ms API: fine below 50 ms, coarse above where only alerts look. */
const API_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

const httpRequests = new client.Counter({
  name: "orderline_http_requests_total",
  help: "HTTP requests answered, by route template, method and status class (2xx … 5xx).",
  labelNames: ["route", "method", "status_class"] as const,
  registers: [registry],
});
const httpDuration = new client.Histogram({
  name: "orderline_http_request_duration_seconds",
  help: "Time from request to response, by route template and method.",
  labelNames: ["route", "method"] as const,
  buckets: API_BUCKETS,
  registers: [registry],
});
const problems = new client.Counter({
  name: "orderline_http_problems_total",
  help: "problem+json answers, by code of the error catalogue (docs/gateway/errors.md).",
  labelNames: ["code"] as const,
  registers: [registry],
});
const ordersCreated = new client.Counter({
  name: "orderline_orders_created_total",
  help: "Sales orders created (idempotent replays not counted).",
  registers: [registry],
});
const orderMoves = new client.Counter({
  name: "orderline_order_moves_total",
  help: "Sales orders moved to another status, by the status moved to.",
  labelNames: ["to_status"] as const,
  registers: [registry],
});
const logins = new client.Counter({
  name: "orderline_logins_total",
  help: "Sign-ins by kind (partner: client credentials, tenant: user e-mail and password) and outcome: success, refused (wrong credentials or disabled), throttled (login_throttled), rate_limited, shed (login_busy: hashing saturated), invalid (malformed request), error.",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});
const rateLimited = new client.Counter({
  name: "orderline_rate_limited_total",
  help: "Requests refused with 429 rate_limited, by limit (orders, login).",
  labelNames: ["limit"] as const,
  registers: [registry],
});
const rateLimitFallbacks = new client.Counter({
  name: "orderline_rate_limit_fallbacks_total",
  help: "Requests let through because the shared (Redis) rate-limit counter did not answer.",
  registers: [registry],
});
const webhookDeliveries = new client.Counter({
  name: "orderline_webhook_deliveries_total",
  help: "Webhook delivery attempts by outcome: succeeded, retry (failed, will be retried), failed (given up after the retry window).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});
const webhookLatency = new client.Histogram({
  name: "orderline_webhook_delivery_duration_seconds",
  help: "Time of one delivery attempt, connecting to the receiver's last response byte.",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});
const storeErrors = new client.Counter({
  name: "orderline_store_errors_total",
  help: "Store operations that failed, by kind: connection, timeout, busy (SQLite lock), constraint, other.",
  labelNames: ["kind"] as const,
  registers: [registry],
});

const unhandledRejections = new client.Counter({
  name: "orderline_unhandled_rejections_total",
  help: "Promises rejected with nothing to handle them: logged (event unhandled_rejection), the process keeps serving. Any is a bug to report.",
  registers: [registry],
});

type LoginKind = "partner" | "tenant";
type LoginOutcome =
  | "success"
  | "refused"
  | "throttled"
  | "rate_limited"
  | "shed"
  | "invalid"
  | "error";

/** Login routes, and whose sign-in each is. */
const LOGIN_ROUTES: Record<string, LoginKind> = {
  "/api/v1/auth/login": "partner",
  "/v1/auth/login": "tenant",
};

function loginOutcome(status: number, code: ErrorCode | undefined): LoginOutcome {
  if (status < 300) return "success";
  if (code === "login_throttled") return "throttled";
  if (code === "rate_limited") return "rate_limited";
  if (code === "login_busy") return "shed";
  if (status === 401 || status === 403) return "refused";
  if (status < 500) return "invalid";
  return "error";
}

/** The problem code each request was answered with (set by the error handler). */
const answeredWith = new WeakMap<FastifyRequest, ErrorCode>();

/** Notes the catalogue code a request is refused with (a one-liner in the error handler). */
export function noteProblem(request: FastifyRequest, code: ErrorCode): void {
  answeredWith.set(request, code);
}

/** Counter and histogram children per (route, method, status), so a request costs two lookups. */
const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"];

function childrenOf(route: string, method: string, status: number) {
  const statusClass = STATUS_CLASSES[Math.floor(status / 100) - 1] ?? "5xx";
  const key = `${method} ${statusClass} ${route}`;
  let found = children.get(key);
  if (found === undefined) {
    found = {
      count: httpRequests.labels({ route, method, status_class: statusClass }),
      time: httpDuration.labels({ route, method }),
    };
    children.set(key, found);
  }
  return found;
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The URL template a request was routed to (undefined when none matched). */
export type RouteOf = (request: FastifyRequest) => string | undefined;

function recordResponse(request: FastifyRequest, reply: FastifyReply, url: string | undefined) {
  // Unrouted requests (404s, scanners) share one label instead of their raw paths.
  const route = url ?? "unmatched";
  const method = KNOWN_METHODS.has(request.method) ? request.method : "OTHER";
  const status = reply.statusCode;
  const { count, time } = childrenOf(route, method, status);
  count.inc();
  time.observe(reply.elapsedTime / 1000);
  const code = answeredWith.get(request);
  if (code !== undefined) {
    problems.labels({ code }).inc();
    if (code === "rate_limited")
      rateLimited.labels({ limit: route in LOGIN_ROUTES ? "login" : "orders" }).inc();
  }
  const loginKind = LOGIN_ROUTES[route];
  if (loginKind !== undefined && method === "POST")
    logins.labels({ kind: loginKind, outcome: loginOutcome(status, code) }).inc();
}

/** Replies counted when the route took them over (countTakenOverResponse). */
const countedAtOpen = new WeakSet<FastifyRequest>();

/**
 * Counts a reply the route took over (`reply.hijack()`: an event stream) once its head is
 * written. Fastify's onResponse runs on the response's `finish`, which a stream the client
 * closes never emits, and one the server ends emits with its whole life as the duration.
 */
export function countTakenOverResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  route: string | undefined,
): void {
  countedAtOpen.add(request);
  recordResponse(request, reply, route);
}

/** Counts every answered request (Fastify's own clock times it: no hook of ours at the start). */
export function installHttpMetrics(app: FastifyInstance, routeOf: RouteOf): void {
  app.addHook("onResponse", (request, reply, done) => {
    if (!countedAtOpen.has(request)) recordResponse(request, reply, routeOf(request));
    done();
  });
}

export const countOrderCreated = (): void => ordersCreated.inc();
export const countOrderMove = (toStatus: string): void =>
  orderMoves.labels({ to_status: toStatus }).inc();
export const countRateLimitFallback = (): void => rateLimitFallbacks.inc();

/** One finished delivery attempt: its outcome and how long the receiver took. */
export function countDelivery(outcome: "succeeded" | "retry" | "failed", durationMs: number): void {
  webhookDeliveries.labels({ outcome }).inc();
  webhookLatency.observe(durationMs / 1000);
}

type StoreErrorKind = "connection" | "timeout" | "busy" | "constraint" | "other";

/** What kind of failure a store error is, from its driver's code (pg SQLSTATE, SQLite, Node). */
export function storeErrorKind(error: unknown): StoreErrorKind {
  const code = String((error as { code?: unknown })?.code ?? "");
  const message = String((error as { message?: unknown })?.message ?? "");
  if (/^(08|57P)/.test(code) || /^E(CONNREFUSED|CONNRESET|PIPE|HOSTUNREACH|NOTFOUND)$/.test(code))
    return "connection";
  if (
    /Connection terminated|connection (is )?closed|Client has encountered a connection error/i.test(
      message,
    )
  )
    return "connection";
  if (code === "57014" || code === "ETIMEDOUT" || /timeout/i.test(message)) return "timeout";
  if (
    code.startsWith("SQLITE_BUSY") ||
    code.startsWith("SQLITE_LOCKED") ||
    code === "40001" ||
    code === "40P01"
  )
    return "busy";
  if (code.startsWith("23") || code.startsWith("SQLITE_CONSTRAINT")) return "constraint";
  return "other";
}

export const countUnhandledRejection = (): void => unhandledRejections.inc();

export const countStoreError = (error: unknown): void =>
  storeErrors.labels({ kind: storeErrorKind(error) }).inc();

/**
 * Readings that cost a query (webhook backlog, outbox lag, readiness) are taken at most once
 * per this many ms however many servers scrape, and each is bounded (store/webhook-store.ts).
 */
const STORE_READING_MS = 5_000;

interface StoreReading {
  at: number;
  ready: number;
  pending: number;
  lagSeconds: number;
}

/** The store the scrape-time gauges read; the gateway of this process sets it. */
let observed: { store: Store; reading?: Promise<StoreReading> } | undefined;

async function readStore(store: Store, now: number): Promise<StoreReading> {
  const expected = latestVersion(store.kind as Dialect);
  try {
    const version = await store.schemaVersion();
    const backlog = await store.webhooks.backlog(now);
    return {
      at: now,
      ready: version >= expected ? 1 : 0,
      pending: backlog.pending,
      lagSeconds:
        backlog.oldestDueAt === null ? 0 : Math.max(0, (now - backlog.oldestDueAt) / 1000),
    };
  } catch {
    // Counted by the store probe (store-probe.ts) like any failed store call.
    return { at: now, ready: 0, pending: Number.NaN, lagSeconds: Number.NaN };
  }
}

async function storeReading(): Promise<StoreReading | undefined> {
  if (observed === undefined) return undefined;
  const now = Date.now();
  const last = observed.reading && (await observed.reading);
  if (last !== undefined && now - last.at < STORE_READING_MS) return last;
  observed.reading = readStore(observed.store, now);
  return observed.reading;
}

/** Makes the scrape-time gauges read `store`; the returned function stops that. */
export function observeStore(store: Store): () => void {
  const mine = { store };
  observed = mine;
  return () => {
    if (observed === mine) observed = undefined;
  };
}

new client.Gauge({
  name: "orderline_ready",
  help: "1 when this instance's store answers and has every migration (what /ready says), else 0.",
  registers: [registry],
  async collect() {
    const reading = await storeReading();
    this.set(reading?.ready ?? 0);
  },
});
new client.Gauge({
  name: "orderline_webhook_backlog",
  help: "Webhook deliveries pending (queued or waiting for a retry), all endpoints; counted up to 100000.",
  registers: [registry],
  async collect() {
    const reading = await storeReading();
    if (reading !== undefined) this.set(reading.pending);
  },
});
new client.Gauge({
  name: "orderline_webhook_outbox_lag_seconds",
  help: "How long the oldest due webhook work has waited: an order event not yet fanned out, or a delivery whose attempt is due; 0 when none. Receivers failing show in the backlog, not here.",
  registers: [registry],
  async collect() {
    const reading = await storeReading();
    if (reading !== undefined) this.set(reading.lagSeconds);
  },
});

interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** PostgreSQL's connection pool, when the store has one (SQLite has none). */
const poolOf = (): PoolCounts | undefined =>
  (observed?.store as { pool?: PoolCounts } | undefined)?.pool;

new client.Gauge({
  name: "orderline_store_pool_connections",
  help: "PostgreSQL pool connections of this instance, by state (in_use, idle). Absent on SQLite.",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    this.reset();
    const pool = poolOf();
    if (pool === undefined) return;
    this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
    this.set({ state: "idle" }, pool.idleCount);
  },
});
new client.Gauge({
  name: "orderline_store_pool_waiting",
  help: "Store calls waiting for a PostgreSQL connection (pool exhausted when above 0 for long). Absent on SQLite.",
  registers: [registry],
  collect() {
    this.reset();
    const pool = poolOf();
    if (pool !== undefined) this.set(pool.waitingCount);
  },
});

/** Redis behind the rate limits, when REDIS_URL is set: whether it answers now. */
let redisState: (() => boolean) | undefined;
export function observeRedis(connected: (() => boolean) | undefined): void {
  redisState = connected;
}
new client.Gauge({
  name: "orderline_rate_limit_redis_up",
  help: "1 while the shared rate-limit counter (Redis) is connected; 0 while limits fall back to letting requests through. Absent without REDIS_URL.",
  registers: [registry],
  collect() {
    this.reset();
    if (redisState !== undefined) this.set(redisState() ? 1 : 0);
  },
});

const shareRefusals = new client.Counter({
  name: "orderline_share_refusals_total",
  help: "Uses of a shared resource refused because a budget was spent, by share (config/shares.ts) and the level whose budget it was: instance, tenant, party, item.",
  labelNames: ["share", "level"] as const,
  registers: [registry],
});
export function countShareRefusal(share: string, level: string): void {
  shareRefusals.inc({ share, level });
}

/** The places held now per held share (security/shares.ts), read at scrape time. */
let sharesHeld: (() => Record<string, number>) | undefined;
export function observeShares(held: (() => Record<string, number>) | undefined): void {
  sharesHeld = held;
}
new client.Gauge({
  name: "orderline_share_held",
  help: "Places of a held shared resource in use on this instance now, by share: streams (open event streams), webhook_slots (deliveries in flight).",
  labelNames: ["share"] as const,
  registers: [registry],
  collect() {
    this.reset();
    if (sharesHeld === undefined) return;
    for (const [share, count] of Object.entries(sharesHeld())) this.set({ share }, count);
  },
});

/** The exposition for a scrape, and its content type. */
export async function scrape(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}
