// node bench/webhooks.mjs [--runs 3 --seconds 10 --connections 64 --store sqlite|postgres]
//                         [--sections outbox,delivery,fairness]
// (run by `npm run bench:gateway` after the order benchmark; needs the built package)
//
// 1. Outbox cost, side by side in one run: order creation over HTTP (bench/driver.mjs) against
//    "before", a copy of this build with the outbox INSERT (and SQLite's inline webhook queueing)
//    taken out of both stores' order writers (patched in a temporary copy of dist/, nothing else
//    differs), and "after", this
//    build as it ships (outbox row per order, the webhook worker fanning events out, no
//    endpoints). Interleaved runs, medians, after as % of before.
// 2. Webhook delivery to a local receiver (node:http in this process, answering 204):
//    - latency: orders created at a steady 20/s for --seconds; per event, receipt time minus the
//      event's created_at (stamped just before the order's commit, so this slightly overstates
//      commit-to-receipt); p50 and p99, with the default poll interval (500 ms);
//    - throughput: orders created with delivery off, then one instance with delivery on drains
//      the backlog; events per second from its start to the last receipt.
// 3. Fairness: one partner's receiver answers in 2 s and has a backlog (orders for
//    2 s at 16 connections); another partner's orders at 20/s for --seconds go to a receiver
//    answering at once. That partner's delivery latency p50/p99, and how many of its events
//    arrived within 60 s, for this build and, with --before-cli PATH, another build side by side.
import { execFileSync } from "node:child_process";
import { sign } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  drive,
  median,
  migrateWithPartner,
  onServer as onPgServer,
  partnerKeys,
  spawnServer,
} from "./common.mjs";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    store: { type: "string" },
    "before-cli": { type: "string" },
    // Which parts to run: outbox,delivery,fairness (all by default).
    sections: { type: "string", default: "outbox,delivery,fairness" },
  },
});
const sections = new Set(values.sections.split(","));
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const STORES = values.store ? [values.store] : ["sqlite", "postgres"];
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const here = new URL(".", import.meta.url).pathname;
const dist = join(here, "../dist");

const dir = mkdtempSync(join(tmpdir(), "orderline-webhooks-bench-"));
// Inside the package, so the copy resolves the same node_modules as the real build.
const beforeRoot = mkdtempSync(join(here, ".before-outbox-"));
const { privateKey } = partnerKeys(dir);
const baseEnv = {
  ...process.env,
  DATABASE_URL: undefined,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
  REDIS_URL: "",
};

/** The build without outbox writes: the two statements that write order.created taken out. */
function buildBefore() {
  cpSync(dist, join(beforeRoot, "dist"), { recursive: true });
  const patch = (file, from, to) => {
    const path = join(beforeRoot, "dist", file);
    const text = readFileSync(path, "utf8");
    const patched = text.replace(from, to);
    if (patched === text) throw new Error(`bench: could not take the outbox out of ${file}`);
    writeFileSync(path, patched);
  };
  patch("store/sqlite/order-writer.js", /\n\s*prepare\(CREATED_EVENT\)\.run\([^;]*;/, "");
  patch("store/sqlite/order-writer.js", /\n\s*prepare\(QUEUE_EVENT\)\.run\([^;]*;/, "");
  patch(
    "store/postgres/order-batch.js",
    /\), events AS \(\s*INSERT INTO order_events[\s\S]*?FROM inserted ORDER BY seq\s*\)/,
    ")",
  );
  return join(beforeRoot, "dist/cli/main.js");
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

const databases = [];
const onServer = (work) => onPgServer(PG_SERVER, work);
async function freshDatabase(store, name) {
  if (store === "sqlite") return `sqlite:${join(dir, `${name}.db`)}`;
  const db = `orderline_bench_${name}_${Date.now()}`;
  await onServer((c) => c.query(`CREATE DATABASE "${db}"`));
  databases.push(db);
  const url = new URL(PG_SERVER);
  url.pathname = `/${db}`;
  return url.toString();
}

const run = (cli, env, args) => execFileSync("node", [cli, ...args], { env, encoding: "utf8" });

// A bench that fails half-way must not leave servers running.
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function serve(cli, env) {
  const server = await spawnServer(cli, env);
  children.add(server.child);
  server.child.once("exit", () => children.delete(server.child));
  return server;
}
const stop = async (server) => {
  const exited = new Promise((r) => server.child.once("exit", r));
  server.child.kill("SIGTERM");
  await exited;
};

/** A store with one partner, made by `cli`; returns its env and credentials. */
async function setUp(cli, store, name, extra = {}) {
  const env = { ...baseEnv, ...extra, DATABASE_URL: await freshDatabase(store, name) };
  const credentials = migrateWithPartner(cli, env, dir);
  return { env, credentials };
}

const driveOrders = (url, credentials, secondsToRun, conns) =>
  drive({
    url,
    credentials,
    key: join(dir, "private.pem"),
    connections: conns,
    seconds: secondsToRun,
    env: baseEnv,
  });

console.log(
  `Webhooks benchmark: ${runs} runs, ${connections} connections, ${seconds} s each, Node ${process.version}, ${cpus().length} CPUs`,
);

const after = join(dist, "cli/main.js");

// 1. Outbox cost.
if (sections.has("outbox")) {
  const before = buildBefore();
  const setups = [];
  const rates = new Map();
  try {
    for (const store of STORES) {
      for (const [label, cli, extra] of [
        ["before", before, {}],
        ["after", after, {}],
        ...(process.env.BENCH_OFF
          ? [["after-nodelivery", after, { GATEWAY_WEBHOOK_POLL_MS: "0" }]]
          : []),
      ]) {
        const { env, credentials } = await setUp(cli, store, `${label}_${store}`);
        const server = await serve(cli, { ...env, ...extra });
        setups.push({ key: `${store} ${label}`, server, credentials });
      }
    }
    // Paired: each run measures before and after of a store back to back (alternating which goes
    // first), and the ratio is taken per pair, so the machine's drift cancels out of it.
    for (let r = 1; r <= runs; r++) {
      const line = [];
      for (const store of STORES) {
        const pair = setups.filter((s) => s.key.startsWith(`${store} `));
        for (const setup of r % 2 ? pair : [...pair].reverse()) {
          const result = driveOrders(setup.server.url, setup.credentials, seconds, connections);
          if (!rates.has(setup.key)) rates.set(setup.key, []);
          rates.get(setup.key).push(result);
          line.push(
            `${setup.key}: ${result.ordersPerSecond.toFixed(0)} orders/s p99 ${result.p99.toFixed(1)} ms`,
          );
        }
      }
      console.log(`run ${r}: ${line.join("  |  ")}`);
    }
  } finally {
    for (const setup of setups) await stop(setup.server);
  }
  console.log("\noutbox cost (medians; after/before taken pair by pair):");
  for (const store of STORES) {
    const b = rates.get(`${store} before`).map((x) => x.ordersPerSecond);
    const a = rates.get(`${store} after`).map((x) => x.ordersPerSecond);
    const ratios = a.map((x, i) => (x / b[i]) * 100);
    const p99 = (label) => median(rates.get(`${store} ${label}`).map((x) => x.p99)).toFixed(1);
    console.log(
      `  ${store.padEnd(8)} before ${median(b).toFixed(0)} orders/s (p99 ${p99("before")} ms)  after ${median(a).toFixed(0)} orders/s (p99 ${p99("after")} ms)  after/before median ${median(ratios).toFixed(1)}% (pairs ${Math.min(...ratios).toFixed(0)}–${Math.max(...ratios).toFixed(0)}%)`,
    );
  }
}

// 2. Delivery.
function receiver(delayMs = 0) {
  const got = new Map();
  let last = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (!got.has(body.id)) got.set(body.id, at - Date.parse(body.created_at));
      last = at;
      setTimeout(() => response.writeHead(204).end(), delayMs);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hooks`,
        got,
        last: () => last,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}
const waitFor = async (test, what, limitMs = 600_000) => {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > limitMs) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function steadyOrders(url, credentials, perSecond, forSeconds) {
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: credentials.client_id,
      client_secret: credentials.client_secret,
    }),
  });
  const { token } = await login.json();
  let sent = 0;
  const started = Date.now();
  while (Date.now() - started < forSeconds * 1000) {
    // Milliseconds: two orders of one second are distinct signed requests (the replay guard).
    const ts = String(Date.now());
    const response = await fetch(`${url}/api/v1/sales-orders`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "x-client-id": credentials.client_id,
        "x-timestamp": ts,
        "x-signature": sign(
          "sha256",
          Buffer.from(`${credentials.client_id}|${ts}`),
          privateKey,
        ).toString("base64"),
      },
      body: JSON.stringify({
        customer_code: "CUST-001",
        site_code: "SITE-01",
        sales_name: "Bench Sales",
        address: "1 Bench Street",
        products: [{ product_code: "SKU-1001", quantity: 2 }],
      }),
    });
    if (response.status !== 201) throw new Error(`bench: order refused ${response.status}`);
    await response.arrayBuffer();
    sent++;
    const due = started + (sent * 1000) / perSecond;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  }
  return sent;
}

try {
  if (sections.has("delivery")) console.log("\nwebhook delivery to a local receiver:");
  for (const store of sections.has("delivery") ? STORES : []) {
    const hooks = await receiver();
    const { env, credentials } = await setUp(after, store, `delivery_${store}`);
    run(after, env, ["webhooks", "add", credentials.client_id, "--url", hooks.url, "--json"]);
    // Latency at a steady rate.
    let server = await serve(after, env);
    const sent = await steadyOrders(server.url, credentials, 20, seconds);
    await waitFor(() => hooks.got.size >= sent, "the steady-rate events");
    const latencies = [...hooks.got.values()];
    await stop(server);
    // Throughput: a backlog made with delivery off, drained by one instance.
    server = await serve(after, { ...env, GATEWAY_WEBHOOK_POLL_MS: "0" });
    driveOrders(server.url, credentials, Math.min(seconds, 5), 16);
    await stop(server);
    const started = Date.now();
    server = await serve(after, env);
    // Drained: events arrived and none for 2 s (four poll intervals).
    await waitFor(() => hooks.got.size > sent && Date.now() - hooks.last() > 2000, "the backlog");
    const drained = hooks.got.size - sent;
    const drainSeconds = (hooks.last() - started) / 1000;
    await stop(server);
    await hooks.close();
    console.log(
      `  ${store.padEnd(8)} latency at 20 events/s (${sent} events): p50 ${percentile(latencies, 50)} ms  p99 ${percentile(latencies, 99)} ms  |  backlog of ${drained} drained at ${(drained / drainSeconds).toFixed(0)} events/s (from process start)`,
    );
  }
  if (sections.has("fairness"))
    console.log("\nfairness: a 2-s receiver with a backlog beside a prompt one:");
  const builds = [
    ["after", after],
    ...(values["before-cli"] ? [["before", values["before-cli"]]] : []),
  ];
  for (const store of sections.has("fairness") ? STORES : [])
    for (const [label, cli] of builds) {
      const slowHooks = await receiver(2000);
      const fastHooks = await receiver();
      const { env, credentials: slow } = await setUp(cli, store, `fair_${label}_${store}`);
      const fast = JSON.parse(
        run(cli, env, [
          "partners",
          "create",
          "--name",
          "Fast",
          "--public-key",
          join(dir, "public.pem"),
          "--json",
        ]),
      );
      run(cli, env, ["webhooks", "add", slow.client_id, "--url", slowHooks.url, "--json"]);
      run(cli, env, ["webhooks", "add", fast.client_id, "--url", fastHooks.url, "--json"]);
      const server = await serve(cli, env);
      const backlog = driveOrders(server.url, slow, 2, 16).ok;
      const sent = await steadyOrders(server.url, fast, 20, seconds);
      const deadline = Date.now() + 60_000;
      while (fastHooks.got.size < sent && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const latencies = [...fastHooks.got.values()];
      await stop(server);
      await slowHooks.close().catch(() => {});
      await fastHooks.close();
      console.log(
        `  ${store.padEnd(8)} ${label.padEnd(6)} slow backlog ${backlog}; prompt partner: ${fastHooks.got.size} of ${sent} delivered within 60 s, p50 ${percentile(latencies, 50)} ms  p99 ${percentile(latencies, 99)} ms (undelivered not counted)`,
      );
    }
} finally {
  for (const name of databases)
    await onServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  rmSync(dir, { recursive: true, force: true });
  rmSync(beforeRoot, { recursive: true, force: true });
}
