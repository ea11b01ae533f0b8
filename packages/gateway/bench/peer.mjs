// node bench/peer.mjs [--rounds 5 --seconds 10 --connections 64 --synchronous full|normal --deps DIR
//                      --before-cli OTHER_BUILD/dist/cli/main.js]
// (also run by `npm run bench:gateway`, unless --peer off)
//
// Signed order creation over HTTP, the built gateway against the conventional peer
// (bench/peer/server.mjs: Express 5 + jsonwebtoken + better-sqlite3) twice: with better-sqlite3's
// defaults (the headline: what a team ships untuned) and on SQLite WAL with the gateway's
// `synchronous`; all driven by bench/driver.mjs in its own process with the same
// partner key pair and connections. Each round runs both, the order swapped every round (ABBA),
// and prints orders/s, p99 and the ratio; then the medians and the median of the per-round
// ratios. The peer's packages are installed with npm into --deps (default: a folder in the
// system temp dir, kept between runs), never into the product.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import {
  drive,
  median,
  migrateWithPartner,
  partnerKeys,
  spawnListening,
  spawnServer,
} from "./common.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    synchronous: { type: "string", default: "full" },
    deps: { type: "string", default: join(tmpdir(), "orderline-bench-peer-deps") },
    // Another build's dist/cli/main.js, measured in the same rounds (e.g. the previous release).
    "before-cli": { type: "string" },
  },
});
const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "../dist/cli/main.js");
const PEER_PACKAGES = ["express@5", "jsonwebtoken@9", "better-sqlite3@12"];

function installPeerDeps(deps) {
  if (existsSync(join(deps, "node_modules", "better-sqlite3", "package.json"))) return;
  mkdirSync(deps, { recursive: true });
  console.log(`installing ${PEER_PACKAGES.join(" ")} into ${deps}`);
  execFileSync("npm", ["install", "--prefix", deps, "--no-audit", "--no-fund", ...PEER_PACKAGES], {
    stdio: "inherit",
  });
}

const spawnPeer = (env) => spawnListening([join(here, "peer/server.mjs")], env, "peer");

/** CPU time (user + system, µs) a process has used so far, from /proc (Linux). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const countRows = (file, table) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;
  } finally {
    db.close();
  }
};

const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
installPeerDeps(values.deps);

const dir = mkdtempSync(join(tmpdir(), "orderline-peer-bench-"));
partnerKeys(dir);
const env = {
  ...process.env,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_SQLITE_SYNCHRONOUS: values.synchronous,
  // The limiter runs (its cost is measured) but never refuses one bench client.
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  REDIS_URL: "",
};
/** A fresh SQLite store for the gateway build at `cliPath`, with the bench partner. */
function gatewayStore(cliPath, name) {
  const storeEnv = { ...env, DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}` };
  const credentials = migrateWithPartner(cliPath, storeEnv, dir);
  return { storeEnv, credentials, db: join(dir, `${name}.db`), table: "sales_orders" };
}

const servers = [];
const targets = [];
console.log(
  `Signed create against the peer: ${rounds} rounds, ${connections} connections, ${seconds} s each, Node ${process.version}, SQLite synchronous=${values.synchronous}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
try {
  const builds = [{ name: "gateway", cli }];
  if (values["before-cli"]) builds.push({ name: "before", cli: values["before-cli"] });
  for (const build of builds) {
    const store = gatewayStore(build.cli, build.name);
    const server = await spawnServer(build.cli, store.storeEnv);
    servers.push(server);
    targets.push({ ...store, name: build.name, server });
  }
  const { credentials } = targets[0];
  // The headline peer runs better-sqlite3's defaults, as a team would ship it; the second runs
  // at the gateway's durability (WAL, the same synchronous level).
  for (const [name, synchronous] of [
    ["peer", "default"],
    [`peer-${values.synchronous}`, values.synchronous],
  ]) {
    const peer = await spawnPeer({
      ...process.env,
      PEER_DEPS: values.deps,
      PEER_DB: join(dir, `${name}.db`),
      PEER_SYNCHRONOUS: synchronous,
      PEER_CLIENT_ID: credentials.client_id,
      PEER_CLIENT_SECRET: credentials.client_secret,
      PEER_PUBLIC_KEY: join(dir, "public.pem"),
    });
    servers.push(peer);
    targets.push({ name, server: peer, credentials, db: join(dir, `${name}.db`), table: "orders" });
  }
  const peers = targets.filter((t) => t.name.startsWith("peer"));
  for (const target of targets) target.results = [];
  for (let round = 1; round <= rounds; round++) {
    // Reversed every other round (ABBA), so a drift of the machine favours no one.
    const order = round % 2 ? targets : [...targets].reverse();
    for (const target of order) target.results.push(run(target, `${target.name}${round}`));
    const peerResult = peers[0].results.at(-1);
    const parts = targets.map((t) => {
      const r = t.results.at(-1);
      const vs = t.name.startsWith("peer")
        ? ""
        : `, ${(r.ordersPerSecond / peerResult.ordersPerSecond).toFixed(2)}x peer orders/s, ${(peerResult.cpuPerOrder / r.cpuPerOrder).toFixed(2)}x CPU`;
      return `${t.name} ${r.ordersPerSecond.toFixed(0)} orders/s p99 ${r.p99.toFixed(1)} ms ${r.cpuPerOrder.toFixed(0)} µs CPU/order${r.failed ? ` (${r.failed} failed)` : ""}${vs}`;
    });
    console.log(`round ${round}: ${parts.join("  |  ")}  (load ${loadavg()[0].toFixed(2)})`);
  }
} finally {
  for (const server of servers) server.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}

/** One driver run against `target`, with its server's CPU per created order (warm-up included). */
function run(target, tag) {
  const { server, db, table, credentials } = target;
  const [cpu, rows] = [cpuMicros(server.child.pid), countRows(db, table)];
  const result = drive({
    url: server.url,
    credentials,
    key: join(dir, "private.pem"),
    connections,
    seconds,
    tag,
    env,
  });
  const created = countRows(db, table) - rows;
  return { ...result, cpuPerOrder: (cpuMicros(server.child.pid) - cpu) / created };
}

const m = (target, key) => median(target.results.map((r) => r[key]));
const range = (ratios) =>
  `${median(ratios).toFixed(2)}x (median of the rounds; ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
console.log("\nmedians:");
for (const target of targets)
  console.log(
    `  ${target.name.padEnd(8)} ${m(target, "ordersPerSecond").toFixed(0).padStart(6)} orders/s  p50 ${m(target, "p50").toFixed(2)} ms  p99 ${m(target, "p99").toFixed(2)} ms  ${m(target, "cpuPerOrder").toFixed(0)} µs CPU/order`,
  );
for (const target of targets.filter((t) => !t.name.startsWith("peer")))
  for (const peer of targets.filter((t) => t.name.startsWith("peer"))) {
    const each = (f) => target.results.map((r, i) => f(r, peer.results[i]));
    console.log(
      `  ${target.name}/${peer.name} orders/s: ${range(each((r, p) => r.ordersPerSecond / p.ordersPerSecond))}; ${peer.name}/${target.name} CPU per order: ${range(each((r, p) => p.cpuPerOrder / r.cpuPerOrder))}; p99 ${m(target, "p99").toFixed(1)} vs ${m(peer, "p99").toFixed(1)} ms`,
    );
  }
