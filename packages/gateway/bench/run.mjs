// npm run bench:gateway [-- --runs 3 --seconds 10 --connections 64 --store sqlite|postgres --instances N --peer on|off]
//
// Per run, side by side:
//   http     the built gateway (`orderline-gateway serve`, log level warn) on 127.0.0.1, driven
//            by bench/driver.mjs in a separate process: signed order creation end to end, with
//            persistence. Without --store, three setups in turn: SQLite (WAL, synchronous=FULL,
//            group commit), PostgreSQL with one instance, PostgreSQL with two instances sharing
//            the database and a Redis rate-limit counter (REDIS_URL, when Redis answers). With
//            --store and --instances, only that setup.
//   ceiling  in this process, no HTTP: the same authenticator (JWT verify + RSA verify) and one
//            order insert through the SQLite store, at the same concurrency.
// Then bench/peer.mjs (signed create against the conventional peer, alternated; --peer off skips
// it), bench/webhooks.mjs (outbox cost before/after, webhook delivery, two-receiver fairness),
// unless --webhooks off, and bench/growing-store.mjs (creation and every listing at each store
// size in --sizes, default 0,100000; add 1000000 for the million-order figure), unless --growing off.
// Prints each run and the medians. PostgreSQL: BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres); a database orderline_bench_<random> is created
// for the run and dropped after.
import { execFileSync } from "node:child_process";
import { createHash, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createGateway, createLogger, loadConfig } from "../dist/index.js";
import {
  drive,
  median,
  migrateWithPartner,
  onServer as onPgServer,
  partnerKeys,
  redisAnswers,
  spawnServer,
} from "./common.mjs";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    // "normal" measures the same with SQLite synchronous=NORMAL (no fsync per commit), for reference.
    synchronous: { type: "string", default: "full" },
    store: { type: "string" },
    instances: { type: "string" },
    peer: { type: "string", default: "on" },
    webhooks: { type: "string", default: "on" },
    growing: { type: "string", default: "on" },
    sizes: { type: "string", default: "0,100000" },
  },
});
const SETUPS =
  values.store === undefined && values.instances === undefined
    ? [
        { store: "sqlite", instances: 1 },
        { store: "postgres", instances: 1 },
        { store: "postgres", instances: 2 },
      ]
    : [{ store: values.store ?? "sqlite", instances: Number(values.instances ?? "1") }];
for (const setup of SETUPS) {
  if (!["sqlite", "postgres"].includes(setup.store)) throw new Error("--store sqlite|postgres");
  if (setup.store === "sqlite" && setup.instances !== 1)
    throw new Error("SQLite runs one instance (the embedded store is for one machine)");
}
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "../dist/cli/main.js");

const dir = mkdtempSync(join(tmpdir(), "orderline-gateway-bench-"));
const { publicKey, privateKey } = partnerKeys(dir);
const env = {
  ...process.env,
  DATABASE_URL: undefined,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_SQLITE_SYNCHRONOUS: values.synchronous,
  // The limiter runs (its cost is measured) but never refuses: one bench client far exceeds
  // the default per-client limit.
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  // Metrics on (as deployed), each instance on a free port of its own.
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  REDIS_URL: "",
};

const EMPTY_BODY_SHA256 = createHash("sha256").digest("hex");
const onServer = (work) => onPgServer(PG_SERVER, work);

async function ceiling() {
  const config = loadConfig(
    { GATEWAY_SQLITE_SYNCHRONOUS: values.synchronous },
    { databaseUrl: `sqlite:${join(dir, "ceiling.db")}`, dataDir: join(dir, "ceiling") },
  );
  const gw = await createGateway({ config, logger: createLogger("warn") });
  const { clientId, clientSecret } = await gw.partners.create("Ceiling", publicKey);
  const login = await gw.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { client_id: clientId, client_secret: clientSecret },
  });
  const token = login.json().token;
  let second = -1;
  let headers;
  const headersNow = () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      const ts = String(now);
      headers = {
        authorization: `Bearer ${token}`,
        "x-client-id": clientId,
        "x-timestamp": ts,
        "x-signature": sign("sha256", Buffer.from(`${clientId}|${ts}`), privateKey).toString(
          "base64",
        ),
      };
    }
    return headers;
  };
  const product = [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }];
  let count = 0;
  let n = 0;
  let stop = false;
  const worker = async (id) => {
    while (!stop) {
      const body = {
        customer_code: "CUST-001",
        site_code: "SITE-01",
        sales_name: "Bench Sales",
        address: "1 Bench Street",
        purchase_order_no: `c-${id}-${n++}`,
        products: product,
      };
      // As the signed route passes a version 1 request: no body digest, the body's text, which
      // tells apart the orders of one second that share a signature (the replay guard).
      const partner = await gw.authenticator.authenticate(headersNow(), {
        method: "POST",
        target: "/api/v1/sales-orders",
        bodySha256: EMPTY_BODY_SHA256,
        bodyText: JSON.stringify(body),
      });
      await gw.orders.create(partner, body, undefined);
      count++;
    }
  };
  const started = performance.now();
  const timer = setTimeout(() => {
    stop = true;
  }, Math.min(seconds, 5) * 1000);
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  clearTimeout(timer);
  const rate = count / ((performance.now() - started) / 1000);
  await gw.close();
  return rate;
}

async function databaseFor(setup) {
  if (setup.store === "sqlite") return `sqlite:${join(dir, "server.db")}`;
  const name = `orderline_bench_${Date.now()}_${setup.instances}`;
  await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
  databases.push(name);
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}
const databases = [];

/** Starts the instances of one setup on a fresh store, with one partner. */
async function startSetup(setup, redis) {
  const setupEnv = { ...env, DATABASE_URL: await databaseFor(setup) };
  if (setup.instances > 1 && redis) setupEnv.REDIS_URL = REDIS_URL;
  const credentials = migrateWithPartner(cli, setupEnv, dir);
  const servers = [];
  for (let i = 0; i < setup.instances; i++) servers.push(await spawnServer(cli, setupEnv));
  const label = `${setup.store} x${setup.instances}${setupEnv.REDIS_URL ? " +redis" : ""}`;
  return { ...setup, label, servers, credentials, url: servers.map((s) => s.url).join(",") };
}

const driveSetup = (url, credentials, tag) =>
  drive({ url, credentials, key: join(dir, "private.pem"), connections, seconds, tag, env });

const redis = SETUPS.some((setup) => setup.instances > 1) && (await redisAnswers(REDIS_URL));
console.log(
  `Gateway benchmark: ${runs} runs, ${connections} connections, ${seconds} s each, Node ${process.version}, ${cpus().length} CPUs, server log level warn, SQLite synchronous=${values.synchronous}`,
);
const setups = [];
const results = new Map();
try {
  for (const setup of SETUPS) setups.push(await startSetup(setup, redis));
  for (let run = 1; run <= runs; run++) {
    const parts = [];
    for (const setup of setups) {
      const http = driveSetup(setup.url, setup.credentials, `run${run}`);
      if (!results.has(setup.label)) results.set(setup.label, []);
      results.get(setup.label).push(http);
      parts.push(
        `${setup.label}: ${http.ordersPerSecond.toFixed(0)} orders/s p50 ${http.p50.toFixed(2)} ms p99 ${http.p99.toFixed(2)} ms (${http.failed} failed)`,
      );
    }
    const ceil = await ceiling();
    if (!results.has("ceiling")) results.set("ceiling", []);
    results.get("ceiling").push({ ordersPerSecond: ceil });
    console.log(`run ${run}: ${parts.join("  |  ")}  |  ceiling ${ceil.toFixed(0)} orders/s`);
  }
} finally {
  for (const setup of setups) for (const server of setup.servers) server.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  for (const name of databases)
    await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
const m = (label, key) => median(results.get(label).map((r) => r[key]));
const ceilingMedian = m("ceiling", "ordersPerSecond");
const first = setups[0]?.label;
console.log("\nmedians:");
for (const setup of setups) {
  const rate = m(setup.label, "ordersPerSecond");
  console.log(
    `  ${setup.label.padEnd(20)} ${rate.toFixed(0).padStart(6)} orders/s  p50 ${m(setup.label, "p50").toFixed(2)} ms  p99 ${m(setup.label, "p99").toFixed(2)} ms  ` +
      `${((rate / m(first, "ordersPerSecond")) * 100).toFixed(0)}% of ${first}  ${((rate / ceilingMedian) * 100).toFixed(0)}% of ceiling`,
  );
}
console.log(`  ceiling (in-process, SQLite) ${ceilingMedian.toFixed(0)} orders/s`);
rmSync(dir, { recursive: true, force: true });

if (values.peer !== "off" && (values.store ?? "sqlite") === "sqlite") {
  execFileSync(
    "node",
    [
      join(here, "peer.mjs"),
      "--rounds",
      String(Math.max(runs, 3)),
      "--seconds",
      String(seconds),
      "--connections",
      String(connections),
      "--synchronous",
      values.synchronous,
    ],
    { stdio: "inherit", env: process.env },
  );
}

if (values.webhooks !== "off") {
  execFileSync(
    "node",
    [
      join(here, "webhooks.mjs"),
      "--runs",
      String(runs),
      "--seconds",
      String(seconds),
      "--connections",
      String(connections),
      ...(values.store ? ["--store", values.store] : []),
    ],
    { stdio: "inherit", env: process.env },
  );
}

if (values.growing !== "off") {
  execFileSync(
    "node",
    [
      join(here, "growing-store.mjs"),
      "--sizes",
      values.sizes,
      "--connections",
      String(connections),
      ...(values.store ? ["--store", values.store] : []),
    ],
    { stdio: "inherit", env: process.env },
  );
}
