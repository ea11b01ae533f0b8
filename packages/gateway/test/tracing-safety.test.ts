import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order, rsaKeys, signatureOf, tempDir } from "./helpers.js";
import { attributesOf, type ExportedSpan, otelEnv, otlpCollector } from "./support/otlp.js";
import {
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { Receiver } from "./support/receiver.js";
import { openSse } from "./support/sse.js";
import { freshDatabaseUrl } from "./support/stores.js";
import { PASSWORD } from "./support/tenants.js";

/**
 * The built gateway with tracing on as docs/deploy.md configures it (OTLP to a collector this
 * test runs): one process, where a stream dropped by its client once ended everything, and
 * where a tenant's trace headers, webhook URL secrets and order numbers in query strings must
 * not reach partners, spans or logs.
 */

// What no partner, span or log line may show.
const URL_SECRET = `s3cret-${randomBytes(4).toString("hex")}`;
const PRIVATE_PO = `PO-PRIVATE-${randomBytes(4).toString("hex")}`;
const TRACESTATE = "tenantvendor=internal-routing-7";
const BAGGAGE = "user.email=ana%40tenant.example";

// A rejection nobody handles, made inside the process on SIGUSR2 (a preloaded module).
const INJECT = `process.on("SIGUSR2", () => { Promise.reject(new Error("injected by the test")); });\n`;

let gateway: RunningGateway;
let partner: ProcessPartner;
let userToken: string;
let receiver: Receiver;
let collector: Awaited<ReturnType<typeof otlpCollector>>;
let metricsUrl: string;
const cleanups: (() => unknown)[] = [];

const lines = () =>
  gateway
    .stdout()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sample = async (series: string): Promise<number> => {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  collector = await otlpCollector();
  cleanups.push(() => collector.close());
  receiver = await new Receiver().start();
  cleanups.push(() => receiver.stop());
  const preload = join(dir, "inject-rejection.mjs");
  writeFileSync(preload, INJECT);
  const env: ProcessEnv = {
    databaseUrl: await freshDatabaseUrl("sqlite", dir),
    dataDir: dir,
    extra: {
      ...otelEnv(collector.url),
      GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
      GATEWAY_WEBHOOK_POLL_MS: "50",
      NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`,
    },
  };
  await cli(env, ["migrate"]);
  const tenantId = JSON.parse(await cli(env, ["tenants", "create", "--name", "Acme", "--json"]))
    .tenant_id as string;
  const email = "member@acme.example";
  await cli(
    env,
    ["users", "create", "--tenant", tenantId, "--email", email, "--role", "member"],
    PASSWORD,
  );
  partner = await createPartnerWithCli(env, rsaKeys());
  await cli(env, ["partners", "set-tenant", partner.clientId, "--tenant", tenantId]);
  await cli(env, [
    "webhooks",
    "add",
    partner.clientId,
    "--url",
    `${receiver.url}?token=${URL_SECRET}`,
  ]);
  gateway = await startProcess(env, 0, "info");
  cleanups.push(async () => {
    gateway.child.kill("SIGTERM");
    await gateway.exited;
  });
  const listening = lines().find((line) => line.event === "listening");
  metricsUrl = String(listening?.metrics_url);
  const login = await fetch(`${gateway.url}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  userToken = ((await login.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function createOrder(headers: Record<string, string> = {}, po = `PO-${Date.now()}`) {
  const token = await loginOver(gateway.url, partner);
  const created = await fetch(`${gateway.url}/api/v1/sales-orders`, {
    method: "POST",
    headers: { ...signedOver(partner, token), ...headers },
    body: JSON.stringify(order({ purchase_order_no: po })),
  });
  expect(created.status).toBe(201);
}

describe("a traced gateway process (sqlite store)", () => {
  it("stays alive and answering while tenant and partner streams are opened and dropped over and over", async () => {
    const token = await loginOver(gateway.url, partner);
    for (let round = 0; round < 12; round++) {
      const streams = await Promise.all([
        openSse(`${gateway.url}/v1/tenant/events`, { authorization: `Bearer ${userToken}` }),
        openSse(`${gateway.url}/api/v1/events/stream`, signedOver(partner, token)),
      ]);
      for (const stream of streams) expect(stream.status).toBe(200);
      // Dropped at once, after the first message, or after a while (the report's 1.5 s).
      const wait = [0, 100, 1500][round % 3] as number;
      await new Promise((r) => setTimeout(r, wait));
      for (const stream of streams) stream.close();
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(gateway.child.exitCode).toBeNull();
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
    await createOrder();
    // A stream opened now still carries what happens.
    const stream = await openSse(`${gateway.url}/v1/tenant/events`, {
      authorization: `Bearer ${userToken}`,
    });
    cleanups.push(() => stream.close());
    await createOrder();
    expect((await stream.next("order.created", 20_000)).event).toBe("order.created");
    // Every store call of the churn was a span (tracing really was on).
    const names = await eventually(() => {
      const found = new Set(collector.spans.map((s) => s.name));
      return found.has("store.events.onSignal") ? found : undefined;
    }, "the store spans exported");
    expect(names).toContain("store.events.latestEvents");
  }, 120_000);

  it("logs and counts an unhandled rejection, and keeps serving", async () => {
    const before = await sample("orderline_unhandled_rejections_total");
    gateway.child.kill("SIGUSR2");
    const logged = await eventually(
      () => lines().find((line) => line.event === "unhandled_rejection"),
      "the unhandled_rejection line",
    );
    expect(JSON.stringify(logged)).toContain("injected by the test");
    expect(await sample("orderline_unhandled_rejections_total")).toBe(before + 1);
    expect(gateway.child.exitCode).toBeNull();
    expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
  }, 60_000);

  it("passes a tenant's trace id on to the partner's receiver, but not its tracestate or baggage", async () => {
    const traceId = randomBytes(16).toString("hex");
    const already = receiver.received.length;
    await createOrder({
      traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      tracestate: TRACESTATE,
      baggage: BAGGAGE,
    });
    await receiver.until((got) => got.length > already, "the delivery");
    const delivered = receiver.received.find((r) =>
      String(r.headers.traceparent).includes(traceId),
    );
    expect(delivered?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(delivered?.headers.tracestate).toBeUndefined();
    expect(delivered?.headers.baggage).toBeUndefined();
    for (const r of receiver.received)
      expect(JSON.stringify(r.headers)).not.toContain("tenantvendor");
  }, 60_000);

  it("keeps query strings out of spans, log lines and the request log", async () => {
    const token = await loginOver(gateway.url, partner);
    const path = `/api/v1/sales-orders?purchase_order_no=${PRIVATE_PO}`;
    const listed = await fetch(`${gateway.url}${path}`, { headers: signedOver(partner, token) });
    expect(listed.status).toBe(200);
    // Refused (a version 2 signature that does not match): its request log entry.
    const ts = String(Math.floor(Date.now() / 1000) + 1);
    const refused = await fetch(`${gateway.url}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        "x-client-id": partner.clientId,
        "x-timestamp": ts,
        "x-signature-version": "2",
        "x-signature": signatureOf(partner.privateKey, partner.clientId, ts),
      },
    });
    expect(refused.status).toBe(401);
    const entries = await eventually(async () => {
      const answer = await fetch(`${gateway.url}/api/v1/request-log?outcome=failed`, {
        headers: signedOver(partner, token),
      });
      const body = (await answer.json()) as { data: Record<string, unknown>[] };
      return body.data.length > 0 ? body.data : undefined;
    }, "the refusal in the request log");
    expect(entries[0]?.path).toBe("/api/v1/sales-orders");
    expect(JSON.stringify(entries[0]?.expected)).toContain("/api/v1/sales-orders?[query removed]");
    expect(JSON.stringify(entries)).not.toContain(PRIVATE_PO);

    // The webhook's client span and the list's server span, exported.
    const spans = await eventually(() => {
      const client = collector.spans.find((s) => attributesOf(s)["url.full"]?.includes("/hooks"));
      const server = collector.spans.find((s) => attributesOf(s)["url.query"] !== undefined);
      return client && server ? { client, server } : undefined;
    }, "the HTTP spans exported");
    expect(attributesOf(spans.client)["url.full"]).toBe(`${receiver.url}?REDACTED`);
    expect(attributesOf(spans.server)["url.query"]).toBe("REDACTED");
    const everySpan = JSON.stringify(collector.spans satisfies ExportedSpan[]);
    expect(everySpan).not.toContain(URL_SECRET);
    expect(everySpan).not.toContain(PRIVATE_PO);

    const urls = lines().map((line) => (line.req as { url?: string } | undefined)?.url);
    expect(urls).toContain("/api/v1/sales-orders");
    expect(gateway.stdout()).not.toContain(PRIVATE_PO);
    expect(gateway.stdout()).not.toContain(URL_SECRET);
  }, 60_000);
});
