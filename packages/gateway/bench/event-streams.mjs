// Event stream latency: how long after an order's 201 its event is on a partner's
// stream, on SQLite (one instance) and on PostgreSQL with the stream held by another instance
// than the one that took the order. In-process gateways from dist/, sequential orders.
//   npm run build && node bench/event-streams.mjs [orders]
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGateway, createLogger, loadConfig } from "../dist/index.js";
import { median, onServer } from "./common.mjs";

const ORDERS = Number(process.argv[2] ?? 100);
const PG_SERVER = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function gateway(databaseUrl, dir) {
  const config = loadConfig({}, { databaseUrl, dataDir: dir, logLevel: "silent" });
  const gw = await createGateway({ config, logger: createLogger("silent") });
  const url = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  return { gw, url };
}

const headers = (partner, token) => {
  const ts = String(Date.now());
  return {
    authorization: `Bearer ${token}`,
    "x-client-id": partner.clientId,
    "x-timestamp": ts,
    "x-signature": sign("sha256", Buffer.from(`${partner.clientId}|${ts}`), partner.key).toString(
      "base64",
    ),
  };
};

/** Opens the partner's stream; calls onEvent(id, at) for each event. */
function openStream(url, partner, token, onEvent) {
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/v1/events/stream`,
      { headers: headers(partner, token) },
      (res) => {
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          buffer += chunk;
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (data) onEvent(JSON.parse(data).data.order.id, performance.now());
          }
        });
        resolve(() => req.destroy());
      },
    );
    req.end();
  });
}

async function run(label, writeUrl, readUrl, gw) {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const created = await gw.partners.create(
    `Bench ${label}`,
    publicKey.export({ type: "spki", format: "pem" }).toString(),
  );
  const partner = { clientId: created.clientId, key: privateKey };
  const login = await fetch(`${writeUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: created.clientId, client_secret: created.clientSecret }),
  });
  const { token } = await login.json();
  const seen = new Map();
  const waiting = new Map();
  const close = await openStream(readUrl, partner, token, (id, at) => {
    seen.set(id, at);
    waiting.get(id)?.();
  });
  await new Promise((r) => setTimeout(r, 500));
  const latencies = [];
  for (let i = 0; i < ORDERS; i++) {
    const response = await fetch(`${writeUrl}/api/v1/sales-orders`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers(partner, token) },
      body: JSON.stringify({
        customer_code: "C-1",
        site_code: "S-1",
        sales_name: "Bench",
        address: "1 Road",
        purchase_order_no: `PO-${label}-${i}`,
        products: [{ product_code: "P-1", quantity: 1 }],
      }),
    });
    const answered = performance.now();
    const { data } = await response.json();
    if (!seen.has(data.id)) await new Promise((r) => waiting.set(data.id, r));
    latencies.push(seen.get(data.id) - answered);
  }
  close();
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${label}: ${ORDERS} orders; event after the 201: median ${median(latencies).toFixed(1)} ms, ` +
      `p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "orderline-bench-events-"));
try {
  const lite = await gateway(`sqlite:${join(dir, "gateway.db")}`, dir);
  await run("sqlite, one instance (woken in-process)", lite.url, lite.url, lite.gw);
  await lite.gw.close();

  const db = `orderline_bench_events_${Date.now()}`;
  await onServer(PG_SERVER, (c) => c.query(`CREATE DATABASE "${db}"`));
  const url = new URL(PG_SERVER);
  url.pathname = `/${db}`;
  try {
    const a = await gateway(url.toString(), join(dir, "pg"));
    const b = await gateway(url.toString(), join(dir, "pg"));
    await run("postgres, written on A, streamed from B (NOTIFY)", a.url, b.url, a.gw);
    await b.gw.close();
    await a.gw.close();
  } finally {
    await onServer(PG_SERVER, (c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
