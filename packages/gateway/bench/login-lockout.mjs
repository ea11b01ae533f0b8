// npm run bench:login-flood -w @orderline/gateway -- --scenario lockout [--seconds 60 --addresses 200]
//
// Can a flood of wrong secrets and passwords from many addresses lock out, or starve, the
// real owner signing in from an address of its own? The built gateway (shipped defaults, scrypt
// N = 2^17) runs as child processes: one on SQLite, two on one PostgreSQL database. `--addresses`
// flood addresses (127.0.2.x and up: all of 127.0.0.0/8 is loopback, so each client socket
// binds its own local address) send, each one at a time for `--seconds`, wrong client secrets
// for the partner's client_id and wrong passwords for the user's email, alternately. Meanwhile
// the owner's clean address (127.0.1.1) signs in with the right secret (unsigned) and the right
// password every 2.5 s (48 logins a minute, within the shipped 60 per address), alternating
// instances. Before the flood, the same sign-ins alone
// give the no-flood median. Prints, per store, what the owner got and how the flood was answered.
// The flood's clients run in a process of their own at nice 10: on one machine, the attacker's
// CPU must not be charged to the gateway (its handling of every flood request still is).
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createGateway, createLogger, loadConfig } from "../dist/index.js";

const { values } = parseArgs({
  options: {
    scenario: { type: "string" },
    seconds: { type: "string", default: "60" },
    addresses: { type: "string", default: "200" },
    store: { type: "string" },
  },
});
const seconds = Number(values.seconds);
const addresses = Number(values.addresses);
const cli = join(new URL(".", import.meta.url).pathname, "../dist/cli/main.js");
const MASTER_KEY = "f2".repeat(32);
const PASSWORD = "benchmark password 123";
const EMAIL = "owner@lockout.example";
const OWNER = "127.0.1.1";
const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const { publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
});

async function prepare(databaseUrl, dir) {
  const config = loadConfig({ GATEWAY_MASTER_KEY: MASTER_KEY }, { databaseUrl, dataDir: dir });
  const gw = await createGateway({ config, logger: createLogger("silent") });
  const partner = await gw.partners.create("Lockout bench", publicKey);
  const tenant = await gw.tenants.create("Lockout bench");
  await gw.users.create({
    tenantId: tenant.tenant_id,
    email: EMAIL,
    role: "member",
    password: PASSWORD,
  });
  await gw.close();
  return partner;
}

function serve(databaseUrl, dir) {
  const child = spawn(
    "node",
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "error"],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        GATEWAY_DATA_DIR: dir,
        GATEWAY_MASTER_KEY: MASTER_KEY,
        REDIS_URL: "",
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

/** POSTs JSON from `agent`'s local address; resolves to [status, ms]. */
function post(url, path, body, agent) {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      new URL(path, url),
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve([res.statusCode, performance.now() - started]));
      },
    );
    req.on("error", () => resolve([0, performance.now() - started]));
    req.end(payload);
  });
}

const agentFor = (localAddress) => new Agent({ keepAlive: true, maxSockets: 1, localAddress });
const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
  );
};

/** The owner's right sign-ins, one partner and one user login every 2.5 s, until `until()`. */
async function owner(urls, partner, until, atLeast = 0) {
  const agent = agentFor(OWNER);
  const got = { partner: [], user: [] };
  for (let i = 0; !until() || i < atLeast; i++) {
    const url = urls[i % urls.length];
    const tick = performance.now();
    got.partner.push(
      await post(
        url,
        "/api/v1/auth/login",
        { client_id: partner.clientId, client_secret: partner.clientSecret },
        agent,
      ),
    );
    got.user.push(await post(url, "/v1/auth/login", { email: EMAIL, password: PASSWORD }, agent));
    const wait = 2500 - (performance.now() - tick);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  agent.destroy();
  return got;
}

function summary(list) {
  const ok = list.filter(([s]) => s === 200);
  const others = {};
  for (const [s] of list) if (s !== 200) others[s] = (others[s] ?? 0) + 1;
  const ms = list.map(([, t]) => t);
  return {
    ok: ok.length,
    total: list.length,
    median: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    others,
  };
}

/** The flood (flood-worker.mjs) in a process of its own at nice 10; resolves to its answers. */
function floodProcess(urls, partner) {
  const plan = {
    urls,
    seconds,
    addresses,
    prefix: "127.0.2",
    attempts: [
      {
        path: "/api/v1/auth/login",
        body: { client_id: partner.clientId, client_secret: "ols_guess_{n}_{i}" },
      },
      { path: "/v1/auth/login", body: { email: EMAIL, password: "wrong password {n} {i}" } },
    ],
  };
  const worker = new URL("./flood-worker.mjs", import.meta.url).pathname;
  const child = spawn(process.execPath, [worker, JSON.stringify(plan)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    setPriority(child.pid, 10);
  } catch {}
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  return new Promise((resolve) =>
    child.once("exit", () => {
      const statuses = {};
      for (const [key, n] of Object.entries(JSON.parse(out))) {
        const [which, status] = key.split(" ");
        statuses[`${which === "0" ? "partner" : "user"} ${status}`] = n;
      }
      resolve(statuses);
    }),
  );
}

async function runStore(kind) {
  const dir = mkdtempSync(join(tmpdir(), "orderline-lockout-bench-"));
  const dbName = `lockout_bench_${process.pid}`;
  let databaseUrl = `sqlite:${join(dir, "gateway.db")}`;
  const admin = kind === "postgres" ? new pg.Client(ADMIN_URL) : undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
    await admin.query(`CREATE DATABASE ${dbName}`);
    databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  }
  const partner = await prepare(databaseUrl, dir);
  const instances = [];
  try {
    for (let i = 0; i < (kind === "postgres" ? 2 : 1); i++)
      instances.push(await serve(databaseUrl, dir));
    const urls = instances.map((i) => i.url);
    const quietUntil = performance.now() + 15_000;
    const quiet = await owner(urls, partner, () => performance.now() > quietUntil);
    const floodUntil = performance.now() + seconds * 1000;
    const [loaded, statuses] = await Promise.all([
      owner(urls, partner, () => performance.now() > floodUntil),
      floodProcess(urls, partner),
    ]);
    return { quiet, loaded, statuses, instances: urls.length };
  } finally {
    for (const { child } of instances) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (ms) => (Number.isNaN(ms) ? "–" : ms.toFixed(0));
console.log(
  `${addresses} flood addresses for ${seconds} s; the owner signs in from ${OWNER} every 2.5 s (partner, then user)`,
);
console.log(
  "| store (instances) | login | no flood: ok, median ms | flood: ok | flood median ms | flood p95 ms | refused | flood answers |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const kind of values.store ? [values.store] : ["sqlite", "postgres"]) {
  const r = await runStore(kind);
  for (const login of ["partner", "user"]) {
    const quiet = summary(r.quiet[login]);
    const loaded = summary(r.loaded[login]);
    const answers = Object.entries(r.statuses)
      .filter(([k]) => k.startsWith(login))
      .map(([k, n]) => `${n}× ${k.split(" ")[1]}`)
      .join(", ");
    console.log(
      `| ${kind} (${r.instances}) | ${login} | ${quiet.ok}/${quiet.total}, ${fmt(quiet.median)} | ${loaded.ok}/${loaded.total} | ${fmt(loaded.median)} | ${fmt(loaded.p95)} | ${JSON.stringify(loaded.others)} | ${answers} |`,
    );
  }
}
