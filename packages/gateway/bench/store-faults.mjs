// node packages/gateway/bench/store-faults.mjs [--rounds 3 --clients 8 --storm-seconds 3]
// (needs the built package and a PostgreSQL server: BENCH_DATABASE_URL, default the local one)
//
// Recovery after a connection-kill storm: one gateway process on its own database, `--clients`
// clients creating signed orders in a loop (half with an Idempotency-Key), and in each round a
// storm of pg_terminate_backend on that gateway's sessions every 50 ms for --storm-seconds (only
// sessions of this database with application_name orderline-gateway: nothing else on the server
// is touched). Per round: requests answered during the storm, how many failed (503
// store_unavailable, anything else), and the recovery time: from the storm's last termination
// until every client has had a 201 for a request it sent after it. Then every order answered 201
// is read back.
import { randomUUID, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { median, migrateWithPartner, onServer, partnerKeys, spawnServer } from "./common.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    clients: { type: "string", default: "8" },
    "storm-seconds": { type: "string", default: "3" },
  },
});
const rounds = Number(values.rounds);
const clients = Number(values.clients);
const stormMs = Number(values["storm-seconds"]) * 1000;
const SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const cli = join(new URL(".", import.meta.url).pathname, "../dist/cli/main.js");

const dir = mkdtempSync(join(tmpdir(), "orderline-store-faults-bench-"));
const database = `orderline_bench_faults_${Date.now()}`;
const onAdmin = (work) => onServer(SERVER, work);
await onAdmin((c) => c.query(`CREATE DATABASE "${database}"`));
const url = new URL(SERVER);
url.pathname = `/${database}`;
const env = {
  ...process.env,
  DATABASE_URL: url.toString(),
  GATEWAY_MASTER_KEY: "fa".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_RATE_LIMIT_ORDERS: "0",
  REDIS_URL: "",
};
const { privateKey } = partnerKeys(dir);
const partner = migrateWithPartner(cli, env, dir);
const server = await spawnServer(cli, env);
let exited = false;
server.child.on("exit", () => {
  exited = true;
});

const login = await fetch(`${server.url}/api/v1/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ client_id: partner.client_id, client_secret: partner.client_secret }),
});
const { token } = await login.json();
const headers = () => {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    "content-type": "application/json",
    authorization: `Bearer ${token}`,
    "x-client-id": partner.client_id,
    "x-timestamp": ts,
    "x-signature": sign("sha256", Buffer.from(`${partner.client_id}|${ts}`), privateKey).toString(
      "base64",
    ),
  };
};
const body = () => ({
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Bench Sales",
  address: "1 Bench Street",
  purchase_order_no: null,
  products: [{ product_code: "SKU-1", quantity: 1, uom: "EA", unit_price: 1 }],
});

const acknowledged = new Set();
/** One create; `keyed` adds an Idempotency-Key. */
async function create(keyed) {
  const started = Date.now();
  try {
    const response = await fetch(`${server.url}/api/v1/sales-orders`, {
      method: "POST",
      headers: keyed ? { ...headers(), "idempotency-key": randomUUID() } : headers(),
      body: JSON.stringify(body()),
    });
    const answer = await response.json();
    if (response.status === 201) acknowledged.add(answer.data.id);
    return { started, ended: Date.now(), status: response.status, code: answer.code };
  } catch (error) {
    return { started, ended: Date.now(), status: 0, code: error.cause?.code ?? error.message };
  }
}

async function round() {
  const results = [];
  let stormEnded = Number.POSITIVE_INFINITY;
  let stopping = false;
  const recoveredAt = new Array(clients).fill(undefined);
  const client = async (i) => {
    for (let n = 0; !stopping; n++) {
      const result = await create((i + n) % 2 === 0);
      results.push(result);
      if (result.status === 201 && result.started > stormEnded && recoveredAt[i] === undefined)
        recoveredAt[i] = result.ended;
      if (recoveredAt.every((t) => t !== undefined)) stopping = true;
    }
  };
  const running = Array.from({ length: clients }, (_, i) => client(i));
  await new Promise((r) => setTimeout(r, 1000)); // steady load first
  const stormStarted = Date.now();
  let terminated = 0;
  while (Date.now() - stormStarted < stormMs) {
    terminated += await onAdmin(async (c) => {
      const { rows } = await c.query(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'orderline-gateway'",
        [database],
      );
      return rows[0].n;
    });
    await new Promise((r) => setTimeout(r, 50));
  }
  stormEnded = Date.now();
  await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, 30_000))]);
  stopping = true;
  await Promise.all(running);
  const during = results.filter((r) => r.ended >= stormStarted && r.started <= stormEnded);
  const count = (test) => during.filter(test).length;
  return {
    terminated,
    answered: during.length,
    ok: count((r) => r.status === 201),
    store_unavailable: count((r) => r.status === 503 && r.code === "store_unavailable"),
    other_failures: count((r) => r.status !== 201 && r.code !== "store_unavailable"),
    recovery_ms: Math.max(...recoveredAt.map((t) => (t ?? Number.NaN) - stormEnded)),
  };
}

try {
  const outcomes = [];
  for (let i = 0; i < rounds; i++) {
    const outcome = await round();
    outcomes.push(outcome);
    console.log(JSON.stringify({ round: i + 1, ...outcome }));
  }
  let lost = 0;
  for (const id of acknowledged) {
    const response = await fetch(`${server.url}/api/v1/sales-orders/${id}`, { headers: headers() });
    if (response.status !== 200) lost += 1;
  }
  console.log(
    JSON.stringify({
      rounds,
      clients,
      storm_seconds: stormMs / 1000,
      median_recovery_ms: median(outcomes.map((o) => o.recovery_ms)),
      median_failed_during_storm: median(
        outcomes.map((o) => o.store_unavailable + o.other_failures),
      ),
      median_answered_during_storm: median(outcomes.map((o) => o.answered)),
      other_failures: outcomes.reduce((n, o) => n + o.other_failures, 0),
      acknowledged: acknowledged.size,
      acknowledged_lost: lost,
      gateway_exited: exited,
    }),
  );
} finally {
  server.child.kill("SIGTERM");
  await new Promise((r) => server.child.once("exit", r));
  await onAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  rmSync(dir, { recursive: true, force: true });
}
