// Load driver for the gateway benchmark, run as its own process so it does not share the
// server's event loop. Logs in once, then keeps N connections busy creating signed orders,
// each with a fresh X-TIMESTAMP every second, and prints one JSON line of results.
import { sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Pool } from "undici";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "client-id": { type: "string" },
    "client-secret": { type: "string" },
    key: { type: "string" },
    connections: { type: "string", default: "64" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    tag: { type: "string", default: "r" },
  },
});
// --url may list several gateway instances (comma-separated): connections are spread over them.
const urls = values.url.split(",").map((u) => new URL(u));
const clientId = values["client-id"];
const privateKey = readFileSync(values.key, "utf8");
const connections = Number(values.connections);
const pools = urls.map(
  (url) =>
    new Pool(url.origin, {
      connections: Math.ceil(connections / urls.length),
      pipelining: 1,
      keepAliveTimeout: 60_000,
    }),
);
const pool = pools[0];

const login = await pool.request({
  method: "POST",
  path: "/api/v1/auth/login",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ client_id: clientId, client_secret: values["client-secret"] }),
});
const { token } = await login.body.json();
if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode}`);

let signedSecond = -1;
let timestamp = "";
let signature = "";
function currentSignature() {
  const second = Math.floor(Date.now() / 1000);
  if (second !== signedSecond) {
    signedSecond = second;
    timestamp = String(second);
    signature = sign("sha256", Buffer.from(`${clientId}|${timestamp}`), privateKey).toString(
      "base64",
    );
  }
  return { timestamp, signature };
}

const product = [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }];
let sequence = 0;
let measuring = false;
let stopping = false;
const latencies = [];
let ok = 0;
let failed = 0;
const statuses = {};

async function worker(id) {
  while (!stopping) {
    const { timestamp: ts, signature: sig } = currentSignature();
    const body = JSON.stringify({
      customer_code: "CUST-001",
      site_code: "SITE-01",
      sales_name: "Bench Sales",
      address: "1 Bench Street",
      purchase_order_no: `${values.tag}-${id}-${sequence++}`,
      products: product,
    });
    const started = performance.now();
    const response = await pools[id % pools.length].request({
      method: "POST",
      path: "/api/v1/sales-orders",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "x-client-id": clientId,
        "x-timestamp": ts,
        "x-signature": sig,
      },
      body,
    });
    await response.body.dump();
    const elapsed = performance.now() - started;
    if (!measuring) continue;
    if (response.statusCode === 201) {
      ok++;
      latencies.push(elapsed);
    } else {
      failed++;
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
  }
}

const workers = Array.from({ length: connections }, (_, i) => worker(i));
await new Promise((r) => setTimeout(r, Number(values.warmup) * 1000));
measuring = true;
const started = performance.now();
await new Promise((r) => setTimeout(r, Number(values.seconds) * 1000));
measuring = false;
const seconds = (performance.now() - started) / 1000;
stopping = true;
await Promise.all(workers);
await Promise.all(pools.map((p) => p.close()));

latencies.sort((a, b) => a - b);
const at = (q) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
process.stdout.write(
  `${JSON.stringify({ ordersPerSecond: ok / seconds, p50: at(0.5), p99: at(0.99), ok, failed, statuses })}\n`,
);
