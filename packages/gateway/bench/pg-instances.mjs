// node packages/gateway/bench/pg-instances.mjs [--rounds 8 --seconds 5 --connections 64 --pool-max N]
//   [--without-redis]
//
// PostgreSQL with one gateway instance against two: both setups run at once on
// databases of their own (two instances share theirs and a Redis rate-limit counter when Redis
// answers), and the driver (bench/driver.mjs) loads them in alternation, x1 then x2, then x2
// then x1, for --rounds rounds after one uncounted round each, so a change in machine load
// hits both alike. Per run, besides
// orders/s and p99: the gateways' CPU time and their PostgreSQL backends' CPU time per order,
// PostgreSQL queries and Redis commands per order, orders per group-commit batch (counted inside
// the servers by bench/count-round-trips.mjs), and the wait events sampled from
// pg_stat_activity — figures the load on a shared machine does not move. Prints medians and
// the x2/x1 ratio. --without-redis adds a third setup, two instances counting their rate limits
// each on its own, to tell what the shared counter costs. BENCH_DATABASE_URL, BENCH_REDIS_URL as
// for bench/run.mjs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  median,
  migrateWithPartner,
  onServer,
  partnerKeys,
  redisAnswers,
  spawnServer,
} from "./common.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "8" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "64" },
    "pool-max": { type: "string" },
    // A directory: each server writes a V8 CPU profile there when it stops.
    "cpu-prof": { type: "string" },
    "without-redis": { type: "boolean", default: false },
  },
});
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "../dist/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "orderline-pg-instances-"));
partnerKeys(dir);
const countDir = join(dir, "counts");
mkdirSync(countDir);

const baseEnv = {
  ...process.env,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  REDIS_URL: "",
  ...(values["pool-max"] ? { GATEWAY_PG_POOL_MAX: values["pool-max"] } : {}),
};

const databases = [];
async function startSetup(instances, redis) {
  const name = `orderline_pginst_${Date.now()}_${instances}${redis ? "r" : ""}`;
  await onServer(PG_SERVER, (c) => c.query(`CREATE DATABASE "${name}"`));
  databases.push(name);
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const env = {
    ...baseEnv,
    DATABASE_URL: url.toString(),
    GATEWAY_INSTANCES: String(instances),
    REDIS_URL: instances > 1 && redis ? REDIS_URL : "",
  };
  const credentials = migrateWithPartner(cli, env, dir);
  const serverEnv = {
    ...env,
    BENCH_COUNT_DIR: countDir,
    NODE_OPTIONS: `--import=${join(here, "count-round-trips.mjs")}`,
    BENCH_CPU_PROF_DIR: values["cpu-prof"]
      ? join(values["cpu-prof"], `x${instances}${env.REDIS_URL ? "r" : ""}`)
      : "",
  };
  const servers = [];
  for (let i = 0; i < instances; i++) servers.push(await spawnServer(cli, serverEnv));
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const label = `postgres x${instances}${env.REDIS_URL ? " +redis" : ""}`;
  return { instances, label, name, servers, credentials, db, url: servers.map((s) => s.url) };
}

/** CPU seconds of a process from /proc (user + system), or 0 once it is gone. */
function procCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** What the setup's servers and their PostgreSQL backends have spent so far. */
async function snapshot(setup) {
  for (const s of setup.servers) s.child.kill("SIGUSR2");
  await new Promise((r) => setTimeout(r, 100));
  const servers = setup.servers.map((s) =>
    JSON.parse(readFileSync(join(countDir, `${s.child.pid}.json`), "utf8")),
  );
  const sum = (key) => servers.reduce((total, s) => total + s[key], 0);
  const { rows: backends } = await setup.db.query(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'orderline-gateway'",
    [setup.name],
  );
  const { rows } = await setup.db.query("SELECT count(*)::int AS n FROM sales_orders");
  return {
    orders: rows[0].n,
    cpuMs: sum("cpuMs"),
    pg: sum("pg"),
    batches: sum("pgOrderBatches"),
    begins: sum("pgBegin"),
    redis: sum("redis"),
    backends: new Map(backends.map((b) => [b.pid, procCpuMs(b.pid)])),
  };
}

function driveAsync(setup, tag) {
  const args = [join(here, "driver.mjs"), "--url", setup.url.join(",")]
    .concat(["--client-id", setup.credentials.client_id])
    .concat(["--client-secret", setup.credentials.client_secret])
    .concat(["--key", join(dir, "private.pem"), "--connections", values.connections])
    .concat(["--seconds", values.seconds, "--tag", tag]);
  return new Promise((resolve, reject) => {
    const child = spawn("node", args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1)))
        : reject(new Error(`driver exited with ${code}`)),
    );
  });
}

/** Samples the wait events of the setup's backends until `done` settles. */
async function sampleWaits(setup, done) {
  const waits = new Map();
  let finished = false;
  done.finally(() => {
    finished = true;
  });
  while (!finished) {
    const { rows } = await setup.db.query(
      "SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS w, count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'orderline-gateway' AND state = 'active' GROUP BY 1",
      [setup.name],
    );
    for (const r of rows) waits.set(r.w, (waits.get(r.w) ?? 0) + r.n);
    waits.set("samples", (waits.get("samples") ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 100));
  }
  return waits;
}

async function measure(setup, tag) {
  // What autovacuum does on a default server (the shared one here runs with it off): without
  // statistics the gateways' cached plans stay those made on the empty tables of round 1, whose
  // duplicate check reads the whole of sales_orders per batch, a cost that grows with the store.
  await setup.db.query("VACUUM ANALYZE");
  const before = await snapshot(setup);
  const load = loadavg()[0];
  const done = driveAsync(setup, tag);
  const waits = sampleWaits(setup, done);
  const http = await done;
  const samples = await waits;
  const after = await snapshot(setup);
  const orders = after.orders - before.orders;
  let backendMs = 0;
  for (const [pid, ms] of after.backends) backendMs += ms - (before.backends.get(pid) ?? 0);
  const per = (key) => (after[key] - before[key]) / orders;
  const n = samples.get("samples") ?? 1;
  samples.delete("samples");
  const top = [...samples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([w, c]) => `${w} ${(c / n).toFixed(1)}`)
    .join(", ");
  return {
    ...http,
    load,
    gatewayCpuMs: per("cpuMs"),
    pgCpuMs: backendMs / orders,
    pgQueries: per("pg"),
    redis: per("redis"),
    perBatch: orders / (after.batches - before.batches || 1),
    waits: top,
  };
}

/** With BENCH_COUNT_TEXTS=1: each statement's count per order over the whole run. */
async function printTexts(setup) {
  const { orders } = await snapshot(setup);
  const texts = new Map();
  for (const s of setup.servers) {
    const counted = JSON.parse(readFileSync(join(countDir, `${s.child.pid}.json`), "utf8")).texts;
    for (const [text, n] of Object.entries(counted ?? {}))
      texts.set(text, (texts.get(text) ?? 0) + n);
  }
  console.log(`${setup.label}, statements per order (${orders} orders):`);
  for (const [text, n] of [...texts].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${(n / orders).toFixed(3)}  ${text.replace(/\s+/g, " ")}`);
}

const format = (r) =>
  `${r.ordersPerSecond.toFixed(0)}/s p99 ${r.p99.toFixed(1)} ms, CPU/order gw ${r.gatewayCpuMs.toFixed(3)} + pg ${r.pgCpuMs.toFixed(3)} ms, ` +
  `pg ${r.pgQueries.toFixed(2)} q/order, redis ${r.redis.toFixed(2)}/order, ${r.perBatch.toFixed(1)} orders/batch (${r.failed} failed) [active: ${r.waits}]`;

const redis = await redisAnswers(REDIS_URL);
const rounds = Number(values.rounds);
console.log(
  `PostgreSQL x1 vs x2: ${rounds} rounds, ${values.connections} connections, ${values.seconds} s each, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
const setups = [];
const results = new Map();
try {
  setups.push(await startSetup(1, redis), await startSetup(2, redis));
  if (redis && values["without-redis"]) setups.push(await startSetup(2, false));
  // A round per setup that is not counted: the first plans are made on empty tables and each
  // x2 instance's code warms on half the requests; the statistics taken before round 1 then
  // describe tables that have orders in them, as they will for every counted round.
  for (const setup of setups) await driveAsync(setup, "r0");
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? setups : [...setups].reverse();
    for (const setup of order) {
      const r = await measure(setup, `r${round}`);
      if (!results.has(setup.label)) results.set(setup.label, []);
      results.get(setup.label).push(r);
      console.log(`round ${round} load ${r.load.toFixed(2)}  ${setup.label}: ${format(r)}`);
    }
  }
} finally {
  if (process.env.BENCH_COUNT_TEXTS) for (const setup of setups) await printTexts(setup);
  const exited = [];
  for (const setup of setups) {
    for (const { child } of setup.servers) {
      exited.push(new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r())));
      child.kill("SIGTERM");
    }
    await setup.db.end();
  }
  await Promise.all(exited);
  for (const name of databases)
    await onServer(PG_SERVER, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  rmSync(dir, { recursive: true, force: true });
}

console.log("\nmedians:");
const medianOf = (label, key) => median(results.get(label).map((r) => r[key]));
for (const setup of setups) {
  const m = (key) => medianOf(setup.label, key);
  console.log(
    `  ${setup.label.padEnd(18)} ${m("ordersPerSecond").toFixed(0).padStart(6)} orders/s  p50 ${m("p50").toFixed(1)} ms  p99 ${m("p99").toFixed(1)} ms  ` +
      `CPU/order gw ${m("gatewayCpuMs").toFixed(3)} + pg ${m("pgCpuMs").toFixed(3)} ms  pg ${m("pgQueries").toFixed(2)} q/order  redis ${m("redis").toFixed(2)}/order  ${m("perBatch").toFixed(1)} orders/batch  load ${m("load").toFixed(2)}`,
  );
}
const [one, ...others] = setups.map((s) => s.label);
for (const two of others) {
  const ratios = results
    .get(two)
    .map((r, i) => r.ordersPerSecond / results.get(one)[i].ordersPerSecond);
  console.log(
    `  x2/x1${others.length > 1 ? ` (${two})` : ""}: median of per-round ratios ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(" ")})`,
  );
}
