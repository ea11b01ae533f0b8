// node bench/peer.mjs [--rounds 5 --seconds 10 --connections 64 --synchronous full|normal --deps DIR]
// (also run by `npm run bench:gateway`, unless --peer off)
//
// Signed order creation over HTTP, the built gateway against the conventional peer
// (bench/peer/server.mjs: Express 5 + jsonwebtoken + better-sqlite3), both on SQLite WAL with
// the same `synchronous`, both driven by bench/driver.mjs in its own process with the same
// partner key pair and connections. Each round runs both, the order swapped every round (ABBA),
// and prints orders/s, p99 and the ratio; then the medians and the median of the per-round
// ratios. The peer's packages are installed with npm into --deps (default: a folder in the
// system temp dir, kept between runs), never into the product.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { drive, median, partnerKeys, spawnServer } from "./common.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    synchronous: { type: "string", default: "full" },
    deps: { type: "string", default: join(tmpdir(), "orderline-bench-peer-deps") },
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

function spawnPeer(env) {
  const child = spawn("node", [join(here, "peer/server.mjs")], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`peer exited with ${code}`)));
  });
}

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
  DATABASE_URL: `sqlite:${join(dir, "gateway.db")}`,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_SQLITE_SYNCHRONOUS: values.synchronous,
  // The limiter runs (its cost is measured) but never refuses one bench client.
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  REDIS_URL: "",
};
execFileSync("node", [cli, "migrate"], { env, stdio: "ignore" });
const credentials = JSON.parse(
  execFileSync(
    "node",
    [
      cli,
      "partners",
      "create",
      "--name",
      "Bench",
      "--public-key",
      join(dir, "public.pem"),
      "--json",
    ],
    { env, encoding: "utf8" },
  ),
);
const servers = [];
const results = { gateway: [], peer: [], ratio: [], cpuRatio: [] };
console.log(
  `Signed create against the peer: ${rounds} rounds, ${connections} connections, ${seconds} s each, Node ${process.version}, SQLite synchronous=${values.synchronous}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
try {
  const gateway = await spawnServer(cli, env);
  servers.push(gateway);
  const peer = await spawnPeer({
    ...process.env,
    PEER_DEPS: values.deps,
    PEER_DB: join(dir, "peer.db"),
    PEER_SYNCHRONOUS: values.synchronous,
    PEER_CLIENT_ID: credentials.client_id,
    PEER_CLIENT_SECRET: credentials.client_secret,
    PEER_PUBLIC_KEY: join(dir, "public.pem"),
  });
  servers.push(peer);
  const targets = {
    gateway: { server: gateway, db: join(dir, "gateway.db"), table: "sales_orders" },
    peer: { server: peer, db: join(dir, "peer.db"), table: "orders" },
  };
  // Server CPU per created order (warm-up included on both sides): what the load of the other
  // processes on this machine changes least.
  const run = (who, tag) => {
    const { server, db, table } = targets[who];
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
  };
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ["gateway", "peer"] : ["peer", "gateway"];
    const got = {};
    for (const who of order) got[who] = run(who, `${who}${round}`);
    const ratio = got.gateway.ordersPerSecond / got.peer.ordersPerSecond;
    const cpuRatio = got.peer.cpuPerOrder / got.gateway.cpuPerOrder;
    results.gateway.push(got.gateway);
    results.peer.push(got.peer);
    results.ratio.push(ratio);
    results.cpuRatio.push(cpuRatio);
    const show = (r) =>
      `${r.ordersPerSecond.toFixed(0)} orders/s p99 ${r.p99.toFixed(1)} ms ${r.cpuPerOrder.toFixed(0)} µs CPU/order${r.failed ? ` (${r.failed} failed)` : ""}`;
    console.log(
      `round ${round}: gateway ${show(got.gateway)}  |  peer ${show(got.peer)}  |  ${ratio.toFixed(2)}x orders/s, ${cpuRatio.toFixed(2)}x CPU/order  (load ${loadavg()[0].toFixed(2)})`,
    );
  }
} finally {
  for (const server of servers) server.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
}
const m = (who, key) => median(results[who].map((r) => r[key]));
console.log("\nmedians:");
for (const who of ["gateway", "peer"])
  console.log(
    `  ${who.padEnd(8)} ${m(who, "ordersPerSecond").toFixed(0).padStart(6)} orders/s  p50 ${m(who, "p50").toFixed(2)} ms  p99 ${m(who, "p99").toFixed(2)} ms  ${m(who, "cpuPerOrder").toFixed(0)} µs CPU/order`,
  );
const range = (ratios) =>
  `${median(ratios).toFixed(2)}x (median of the rounds; ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
console.log(`  gateway/peer orders/s: ${range(results.ratio)}`);
console.log(`  peer/gateway CPU per order: ${range(results.cpuRatio)}`);
