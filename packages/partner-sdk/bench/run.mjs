// npm run bench -w @orderline/partner-sdk [-- --orders 200 --rounds 7 --concurrency 1,8]
//
// The SDK's overhead per order against a hand-written fetch loop doing the same work (login once,
// per request a fresh timestamp, a SHA256withRSA signature and an Idempotency-Key, JSON in and
// out), in the same run against the same gateway: the built `orderline-gateway serve` in a child
// process with a fresh SQLite store. The two sides alternate order by order; per round the
// median latency of each side; printed: the medians over rounds, and the median over rounds of
// sdk / hand-written - 1 (the overhead).
import { execFileSync, spawn } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPartnerClient } from "../dist/index.js";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "200" },
    rounds: { type: "string", default: "7" },
    concurrency: { type: "string", default: "1,8" },
  },
});
const ORDERS = Number(values.orders);
const ROUNDS = Number(values.rounds);
const CONCURRENCIES = values.concurrency.split(",").map(Number);

const gatewayCli = new URL("../../gateway/dist/cli/main.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "orderline-sdk-bench-"));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, "gateway.db")}`,
  GATEWAY_DATA_DIR: dir,
  GATEWAY_MASTER_KEY: "5e".repeat(32),
  GATEWAY_RATE_LIMIT_ORDERS: "1000000",
  REDIS_URL: "",
};
const { publicKey, privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
writeFileSync(join(dir, "public.pem"), publicKey);
// Only migrate (and serve) create a store; partners create needs one.
execFileSync("node", [gatewayCli, "migrate"], { env, stdio: "ignore" });
const partner = JSON.parse(
  execFileSync(
    "node",
    [
      gatewayCli,
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

const child = spawn(
  "node",
  [gatewayCli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
  {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const baseUrl = await new Promise((resolve, reject) => {
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) resolve(match[1]);
  });
  child.once("exit", (code) => reject(new Error(`gateway exited (${code})`)));
});

const ORDER = {
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Bench Sales",
  address: "1 Bench Street",
  purchase_order_no: null,
  products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
};

/**
 * The hand-written client: what a careful partner writes with fetch and node:crypto (the key
 * parsed once: parsing the PEM on every sign would cost more than the whole SDK).
 */
async function handWritten() {
  const key = createPrivateKey(privateKey);
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.client_id, client_secret: partner.client_secret }),
  });
  const { token } = await login.json();
  return async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(
      "sha256",
      Buffer.from(`${partner.client_id}|${timestamp}`),
      key,
    ).toString("base64");
    const response = await fetch(`${baseUrl}/api/v1/sales-orders`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "x-client-id": partner.client_id,
        "x-timestamp": timestamp,
        "x-signature": signature,
        "idempotency-key": randomUUID(),
      },
      body: JSON.stringify(ORDER),
    });
    const body = await response.json();
    if (response.status !== 201) throw new Error(JSON.stringify(body));
    return body.data;
  };
}

async function sdk() {
  const client = createPartnerClient({
    baseUrl,
    clientId: partner.client_id,
    clientSecret: partner.client_secret,
    privateKey,
  });
  await client.login();
  return () => client.salesOrders.create(ORDER);
}

/**
 * Per-order latencies of both sides, interleaved order by order (each worker alternates which
 * side goes first), so the gateway's and the machine's ups and downs fall on both alike.
 */
async function measure(sides, concurrency, orders) {
  const latencies = { "hand-written": [], sdk: [] };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < orders) {
        const pair = next++ % 2 === 0 ? ["hand-written", "sdk"] : ["sdk", "hand-written"];
        for (const name of pair) {
          const started = performance.now();
          await sides[name]();
          latencies[name].push(performance.now() - started);
        }
      }
    }),
  );
  return latencies;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  const sides = { "hand-written": await handWritten(), sdk: await sdk() };
  for (const concurrency of CONCURRENCIES) {
    // Warm-up: JIT, connection pools, the gateway's caches.
    await measure(sides, concurrency, 100);
    const perRound = [];
    for (let round = 0; round < ROUNDS; round++) {
      const latencies = await measure(sides, concurrency, ORDERS);
      perRound.push({ raw: median(latencies["hand-written"]), sdk: median(latencies.sdk) });
    }
    const raw = median(perRound.map((r) => r.raw));
    const withSdk = median(perRound.map((r) => r.sdk));
    const overhead = median(perRound.map((r) => r.sdk / r.raw - 1)) * 100;
    console.log(
      `concurrency ${concurrency}: hand-written ${raw.toFixed(3)} ms/order, sdk ${withSdk.toFixed(3)} ms/order, ` +
        `overhead ${overhead.toFixed(1)}% (medians over ${ROUNDS} rounds of ${ORDERS} order pairs)`,
    );
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
}
