// npm run bench:login-flood -w @orderline/gateway [-- --runs 3 --logins 120 --concurrency 30]
//
// Does a flood of tenant sign-ins slow down signed partner requests? The built gateway
// (`orderline-gateway serve`, SQLite, shipped scrypt cost N = 2^17) runs in a child process on
// 127.0.0.1. This process sends signed GET /api/v1/sales-orders one after another (the probe,
// signature made before the clock starts) and, meanwhile, `--logins` sign-ins with random
// emails, `--concurrency` at a time (the red team's flood). Per setup it prints the probe's
// median, p95 and p99 during the flood, the probe alone before it, and how the sign-ins were
// answered. Setups:
//   shipped            the defaults: hashing bounded, sign-ins limited per source address
//   no address limit   GATEWAY_RATE_LIMIT_LOGINS=0, as if the flood came from many addresses:
//                      only the hashing bound protects
//   unbounded hashing  also GATEWAY_HASH_CONCURRENCY=--concurrency, GATEWAY_HASH_QUEUE=10000:
//                      every sign-in hashes at once (still on the low-priority threads)
// `--scenario lockout` runs login-lockout.mjs instead: a many-address flood of wrong secrets
// and passwords against the owner's own sign-ins.
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createGateway, createLogger, loadConfig } from "../dist/index.js";

if (process.argv.includes("--scenario")) {
  await import("./login-lockout.mjs");
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    logins: { type: "string", default: "120" },
    concurrency: { type: "string", default: "30" },
    setup: { type: "string" },
  },
});
const runs = Number(values.runs);
const logins = Number(values.logins);
const concurrency = Number(values.concurrency);
const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "../dist/cli/main.js");

const SETUPS = {
  shipped: {},
  "no address limit": { GATEWAY_RATE_LIMIT_LOGINS: "0" },
  "unbounded hashing": {
    GATEWAY_RATE_LIMIT_LOGINS: "0",
    GATEWAY_HASH_CONCURRENCY: String(Math.min(concurrency, 64)),
    GATEWAY_HASH_QUEUE: "10000",
  },
};

const { publicKey, privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const MASTER_KEY = "f1".repeat(32);

/** A store with a partner and a tenant user, made in this process before the server starts. */
async function prepare(dir) {
  const config = loadConfig(
    { GATEWAY_MASTER_KEY: MASTER_KEY },
    { databaseUrl: `sqlite:${join(dir, "gateway.db")}`, dataDir: dir },
  );
  const gw = await createGateway({ config, logger: createLogger("silent") });
  const partner = await gw.partners.create("Flood bench", publicKey);
  const tenant = await gw.tenants.create("Flood bench");
  await gw.users.create({
    tenantId: tenant.tenant_id,
    email: "user@flood.example",
    role: "member",
    password: "benchmark password 123",
  });
  await gw.close();
  return partner;
}

function serve(dir, extra) {
  const child = spawn(
    "node",
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "error"],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${join(dir, "gateway.db")}`,
        GATEWAY_DATA_DIR: dir,
        GATEWAY_MASTER_KEY: MASTER_KEY,
        GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
        REDIS_URL: "",
        ...extra,
      },
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code}: ${out}`)));
  });
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

function signedHeaders(clientId, token) {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    authorization: `Bearer ${token}`,
    "x-client-id": clientId,
    "x-timestamp": ts,
    "x-signature": sign("sha256", Buffer.from(`${clientId}|${ts}`), privateKey).toString("base64"),
  };
}

/** Signed requests one after another until `until()` says stop; their latencies in ms. */
async function probe(url, clientId, token, until) {
  const times = [];
  while (!until()) {
    const headers = signedHeaders(clientId, token);
    const started = performance.now();
    const response = await fetch(`${url}/api/v1/sales-orders?limit=1`, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`probe answered ${response.status}`);
  }
  return times;
}

async function flood(url) {
  const statuses = {};
  let next = 0;
  const worker = async () => {
    while (next < logins) {
      next += 1;
      const status = await post(`${url}/v1/auth/login`, {
        email: `${randomBytes(6).toString("hex")}@flood.example`,
        password: "not the password 123",
      });
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const median = (list) => quantile(list, 0.5);

async function runOnce(name) {
  const dir = mkdtempSync(join(tmpdir(), "orderline-flood-bench-"));
  const partner = await prepare(dir);
  const { child, url } = await serve(dir, SETUPS[name]);
  try {
    const loginAnswer = await fetch(`${url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
    });
    const { token } = await loginAnswer.json();
    const quietUntil = performance.now() + 2000;
    const quiet = await probe(url, partner.clientId, token, () => performance.now() > quietUntil);
    let flooding = true;
    const started = performance.now();
    const [statuses, loaded] = await Promise.all([
      flood(url).finally(() => {
        flooding = false;
      }),
      probe(url, partner.clientId, token, () => !flooding),
    ]);
    return {
      quiet: median(quiet),
      quietP99: quantile(quiet, 0.99),
      median: median(loaded),
      p95: quantile(loaded, 0.95),
      p99: quantile(loaded, 0.99),
      samples: loaded.length,
      floodSeconds: (performance.now() - started) / 1000,
      statuses,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (ms) => ms.toFixed(1);
const names = values.setup ? [values.setup] : Object.keys(SETUPS);
console.log(
  `${logins} sign-ins with random emails, ${concurrency} at a time, against signed GET /api/v1/sales-orders`,
);
console.log(
  "| setup | run | alone median ms | alone p99 ms | flood median ms | flood p95 ms | flood p99 ms | probes | flood s | sign-in answers |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const name of names) {
  const results = [];
  for (let run = 1; run <= runs; run++) {
    const r = await runOnce(name);
    results.push(r);
    const answers = Object.entries(r.statuses)
      .map(([status, n]) => `${n}× ${status}`)
      .join(", ");
    console.log(
      `| ${name} | ${run} | ${fmt(r.quiet)} | ${fmt(r.quietP99)} | ${fmt(r.median)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.samples} | ${r.floodSeconds.toFixed(1)} | ${answers} |`,
    );
  }
  const m = (key) => fmt(median(results.map((r) => r[key])));
  console.log(
    `| ${name} | median | ${m("quiet")} | ${m("quietP99")} | ${m("median")} | ${m("p95")} | ${m("p99")} | | ${median(results.map((r) => r.floodSeconds)).toFixed(1)} | |`,
  );
}
