import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import { otelEnv, otlpCollector } from "./support/otlp.js";
import {
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { Receiver } from "./support/receiver.js";
import { freshDatabaseUrl } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DELIVERY = {
  GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
  GATEWAY_WEBHOOK_POLL_MS: "50",
  GATEWAY_WEBHOOK_TIMEOUT_MS: "1000",
};

/** Parses every stdout line; fails the test on any line that is not a JSON object. */
function jsonLines(gateway: RunningGateway): Record<string, unknown>[] {
  return gateway
    .stdout()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`stdout line is not JSON: ${line}`);
      }
    });
}

function metricsUrlOf(gateway: RunningGateway): string {
  const listening = jsonLines(gateway).find((line) => line.event === "listening");
  const url = listening?.metrics_url;
  if (typeof url !== "string") throw new Error("the gateway announced no metrics address");
  return url;
}

/** One sample's value from an exposition, 0 when the series is absent. */
function sample(exposition: string, series: string): number {
  const line = exposition.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function setUp(extra: Record<string, string>, logLevel = "info") {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const receiver = await new Receiver().start();
  cleanups.push(() => receiver.stop());
  const env: ProcessEnv = {
    databaseUrl: await freshDatabaseUrl("sqlite", dir),
    dataDir: dir,
    extra: { ...DELIVERY, ...extra },
  };
  await cli(env, ["migrate"]);
  const partner = await createPartnerWithCli(env, rsaKeys());
  await cli(env, ["webhooks", "add", partner.clientId, "--url", receiver.url, "--json"]);
  const gateway = await startProcess(env, 0, logLevel);
  cleanups.push(async () => {
    gateway.child.kill("SIGTERM");
    await gateway.exited;
  });
  return { env, partner, receiver, gateway };
}

describe("observability of the built gateway process", () => {
  it("exposes /metrics on its own listener, and the families move as logins, orders and deliveries happen", async () => {
    const { partner, receiver, gateway } = await setUp({});
    const metricsUrl = metricsUrlOf(gateway);
    // Not on the API's port: partners reach that one through the proxy.
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
    expect(new URL(metricsUrl).port).not.toBe(new URL(gateway.url).port);

    const before = await scrape(metricsUrl);
    const unmatchedSeries =
      'orderline_http_requests_total{route="unmatched",method="GET",status_class="4xx"}';
    for (const family of [
      "orderline_http_requests_total",
      "orderline_http_request_duration_seconds",
      "orderline_orders_created_total",
      "orderline_order_moves_total",
      "orderline_logins_total",
      "orderline_rate_limited_total",
      "orderline_webhook_deliveries_total",
      "orderline_webhook_delivery_duration_seconds",
      "orderline_webhook_backlog",
      "orderline_webhook_outbox_lag_seconds",
      "orderline_store_pool_connections",
      "orderline_store_errors_total",
      "orderline_unhandled_rejections_total",
      "orderline_rate_limit_redis_up",
      "orderline_ready",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(before, family).toContain(`# TYPE ${family} `);
    expect(sample(before, "orderline_ready")).toBe(1);
    expect(sample(before, "orderline_orders_created_total")).toBe(0);

    const wrong = await fetch(`${gateway.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: partner.clientId, client_secret: "ols_wrong" }),
    });
    expect(wrong.status).toBe(401);
    const token = await loginOver(gateway.url, partner);
    const ids: string[] = [];
    for (const po of ["PO-M-1", "PO-M-2"]) {
      const created = await fetch(`${gateway.url}/api/v1/sales-orders`, {
        method: "POST",
        headers: signedOver(partner, token),
        body: JSON.stringify(order({ purchase_order_no: po })),
      });
      expect(created.status).toBe(201);
      ids.push(((await created.json()) as { data: { id: string } }).data.id);
    }
    const cancelled = await fetch(`${gateway.url}/api/v1/sales-orders/${ids[0]}/cancel`, {
      method: "POST",
      headers: signedOver(partner, token),
      body: JSON.stringify({ reason: "ordered twice" }),
    });
    expect(cancelled.status).toBe(200);
    await receiver.until((got) => got.length === 3, "three deliveries");

    const after = await eventually(async () => {
      const text = await scrape(metricsUrl);
      return sample(text, 'orderline_webhook_deliveries_total{outcome="succeeded"}') === 3
        ? text
        : undefined;
    }, "three successful deliveries counted");
    expect(sample(after, "orderline_orders_created_total")).toBe(2);
    expect(sample(after, 'orderline_order_moves_total{to_status="cancelled"}')).toBe(1);
    expect(sample(after, 'orderline_logins_total{kind="partner",outcome="success"}')).toBe(1);
    expect(sample(after, 'orderline_logins_total{kind="partner",outcome="refused"}')).toBe(1);
    expect(
      sample(
        after,
        'orderline_http_requests_total{route="/api/v1/sales-orders",method="POST",status_class="2xx"}',
      ),
    ).toBe(2);
    expect(
      sample(
        after,
        'orderline_http_request_duration_seconds_count{route="/api/v1/sales-orders",method="POST"}',
      ),
    ).toBe(2);
    expect(sample(after, 'orderline_http_problems_total{code="invalid_client"}')).toBe(1);
    expect(sample(after, "orderline_webhook_delivery_duration_seconds_count")).toBe(3);
    // The store readings are taken at most every 5 s: wait for one after the deliveries.
    const drained = await eventually(async () => {
      const text = await scrape(metricsUrl);
      return sample(text, "orderline_webhook_backlog") === 0 ? text : undefined;
    }, "an empty backlog");
    expect(sample(drained, "orderline_webhook_outbox_lag_seconds")).toBe(0);
    // Raw paths never become labels: an unknown path counts under "unmatched".
    await fetch(`${gateway.url}/no/such/${randomBytes(4).toString("hex")}`);
    const unmatched = await scrape(metricsUrl);
    expect(unmatched).not.toMatch(/route="\/no\/such/);
    expect(sample(unmatched, unmatchedSeries)).toBe(sample(before, unmatchedSeries) + 1);
  }, 60_000);

  it("refuses scrapes without the token when GATEWAY_METRICS_TOKEN is set", async () => {
    const { gateway } = await setUp({ GATEWAY_METRICS_TOKEN: "scrape-secret" }, "warn");
    const url = metricsUrlOf(gateway);
    const bare = await fetch(url);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("content-type")).toBe("application/problem+json");
    expect(((await bare.json()) as { code: string }).code).toBe("token_missing");
    const wrong = await fetch(url, { headers: { authorization: "Bearer nope" } });
    expect(((await wrong.json()) as { code: string }).code).toBe("token_invalid");
    const right = await fetch(url, { headers: { authorization: "Bearer scrape-secret" } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("orderline_http_requests_total");
  }, 60_000);

  it("writes JSON lines only, each with the instance id, and logs probes only at debug", async () => {
    const { partner, gateway } = await setUp({ GATEWAY_INSTANCE_ID: "gw-test-1" });
    for (const path of ["/health", "/ready", "/health"])
      expect((await fetch(`${gateway.url}${path}`)).status).toBe(200);
    const token = await loginOver(gateway.url, partner);
    const created = await fetch(`${gateway.url}/api/v1/sales-orders`, {
      method: "POST",
      headers: signedOver(partner, token),
      body: JSON.stringify(order()),
    });
    const requestId = created.headers.get("x-request-id");
    await fetch(metricsUrlOf(gateway));
    gateway.child.kill("SIGTERM");
    await gateway.exited;
    const lines = jsonLines(gateway);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.instance, JSON.stringify(line)).toBe("gw-test-1");
    const ofRequest = lines.filter((line) => line.reqId === requestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    const urls = lines.map((line) => (line.req as { url?: string } | undefined)?.url);
    expect(urls).toContain("/api/v1/sales-orders");
    for (const probe of ["/health", "/ready", "/metrics"]) expect(urls).not.toContain(probe);
    expect(lines.at(-1)?.event).toBe("stopped");
  }, 60_000);

  it("continues a caller's traceparent: its trace id in the request's log lines, in the spans exported, and at the webhook receiver", async () => {
    const collector = await otlpCollector();
    cleanups.push(() => collector.close());
    const { partner, receiver, gateway } = await setUp({
      ...otelEnv(collector.url),
    });
    const traceId = randomBytes(16).toString("hex");
    const token = await loginOver(gateway.url, partner);
    const created = await fetch(`${gateway.url}/api/v1/sales-orders`, {
      method: "POST",
      headers: {
        ...signedOver(partner, token),
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
      body: JSON.stringify(order()),
    });
    expect(created.status).toBe(201);
    const requestId = created.headers.get("x-request-id");

    await receiver.until((got) => got.length === 1, "the delivery");
    const sent = String(receiver.received[0]?.headers.traceparent);
    expect(sent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const ofRequest = jsonLines(gateway).filter((line) => line.reqId === requestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    for (const line of ofRequest) expect(line.trace_id, JSON.stringify(line)).toBe(traceId);

    const names = await eventually(async () => {
      const found = collector.spans.filter((s) => s.traceId === traceId).map((s) => s.name);
      return found.includes("webhook.deliver") && found.includes("POST /api/v1/sales-orders")
        ? found
        : undefined;
    }, "the trace's spans exported");
    expect(names).toContain("signature.verify");
    expect(names).toContain("store.createOrder");
    expect(names).toContain("POST"); // the delivery's HTTP client span, child of webhook.deliver
    const deliver = collector.spans.find((s) => s.name === "webhook.deliver");
    const client = collector.spans.find((s) => s.parentSpanId === deliver?.spanId);
    expect(sent.split("-")[2]).toBe(client?.spanId);
  }, 60_000);
});
