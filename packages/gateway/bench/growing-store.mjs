// npm run bench:gateway -- --growing on|off [--sizes 0,100000,1000000] [--store sqlite|postgres]
// or directly: node bench/growing-store.mjs --sizes 0,100000 --seconds 5
//
// The growing store, per store kind, with the built gateway serving over HTTP:
//   - signed order creation alone (driver.mjs), orders/s and p99;
//   - every listing filter, partner (GET /api/v1/sales-orders) and tenant (GET /v1/orders):
//     sequential GETs, p50 and p95 in ms;
//   - creation again while two connections loop an old created_at window: the cost to creation;
//   - bytes per order (SQLite: file pages; PostgreSQL: the order tables with their indexes);
// at each store size, growing the same store by seeding rows directly (bench/seed-orders.mjs):
// 90 % to the bench partner over the past year, 10 % to a second partner of the same tenant.
import { execFile, execFileSync } from "node:child_process";
import { sign } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { median, onServer, partnerKeys, spawnServer } from "./common.mjs";
import { seedOrdersStatement } from "./seed-orders.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "0,100000,1000000" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "64" },
    samples: { type: "string", default: "40" },
    store: { type: "string" },
    // Another build's CLI (e.g. a worktree of main), to measure it the same way side by side.
    cli: { type: "string" },
  },
});
const sizes = values.sizes.split(",").map(Number);
const seconds = Number(values.seconds);
const samples = Number(values.samples);
const stores = values.store ? [values.store] : ["sqlite", "postgres"];
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const here = new URL(".", import.meta.url).pathname;
const cli = values.cli ?? join(here, "../dist/cli/main.js");
const DAY = 86_400_000;
const PASSWORD = "growing-store-bench-pw";

const dir = mkdtempSync(join(tmpdir(), "orderline-growing-"));
const { privateKey } = partnerKeys(dir);
const baseEnv = {
  ...process.env,
  GATEWAY_MASTER_KEY: "be".repeat(32),
  GATEWAY_DATA_DIR: dir,
  GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
  GATEWAY_WEBHOOK_POLL_MS: "0",
  REDIS_URL: "",
};
const run = (env, args, input) =>
  execFileSync("node", [cli, ...args], { env, encoding: "utf8", input });

/** A fresh store with a tenant, its admin and two partners; returns what the bench needs. */
async function setUp(kind) {
  let url = `sqlite:${join(dir, `${kind}.db`)}`;
  if (kind === "postgres") {
    const name = `orderline_growing_${Date.now()}`;
    await onServer(PG_SERVER, (c) => c.query(`CREATE DATABASE "${name}"`));
    const u = new URL(PG_SERVER);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const env = { ...baseEnv, DATABASE_URL: url };
  run(env, ["migrate"]);
  const tenant = JSON.parse(run(env, ["tenants", "create", "--name", "Bench", "--json"]));
  run(
    env,
    [
      "users",
      "create",
      "--tenant",
      tenant.tenant_id,
      "--email",
      "bench@example.com",
      "--role",
      "admin",
    ],
    `${PASSWORD}\n`,
  );
  const partner = (name) =>
    JSON.parse(
      run(env, [
        "partners",
        "create",
        "--name",
        name,
        "--public-key",
        join(dir, "public.pem"),
        "--tenant",
        tenant.tenant_id,
        "--json",
      ]),
    );
  return { kind, url, env, main: partner("Bench"), other: partner("Other") };
}

/** Runs `work` on a raw connection to the store (seeding, sizes). */
async function onStore(store, work) {
  if (store.kind === "sqlite") {
    const db = new Database(store.url.slice("sqlite:".length));
    db.pragma("busy_timeout = 10000");
    try {
      return await work({
        all: async (sql, params = []) => db.prepare(sql).all(...params),
        run: async (sql, params = []) => void db.prepare(sql).run(...params),
      });
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  try {
    return await work({
      all: async (sql, params = []) => (await client.query(sql, params)).rows,
      run: async (sql, params = []) => void (await client.query(sql, params)),
    });
  } finally {
    await client.end();
  }
}

const placeholders = (kind, sql) => (kind === "postgres" ? sql : sql.replace(/\$\d+/g, "?"));

/** Grows the store to `total` seeded orders (on top of what the bench created). */
async function seed(store, from, total, endAt) {
  if (total <= from) return;
  await onStore(store, async (db) => {
    for (const [partner, share] of [
      [store.main, 0.9],
      [store.other, 0.1],
    ]) {
      const [{ id }] = await db.all(
        placeholders(store.kind, "SELECT id FROM partners WHERE client_id = $1"),
        [partner.client_id],
      );
      const count = Math.round((total - from) * share);
      const [{ issued }] = await db.all(
        placeholders(store.kind, "SELECT orders_issued AS issued FROM partners WHERE id = $1"),
        [id],
      );
      const s = seedOrdersStatement(store.kind, {
        partnerId: id,
        count,
        firstNumber: Number(issued),
        endAt,
        days: 365,
      });
      await db.run(s.sql, s.params);
      await db.run(
        placeholders(
          store.kind,
          "UPDATE partners SET orders_issued = orders_issued + $1 WHERE id = $2",
        ),
        [count, id],
      );
    }
    if (store.kind === "postgres") await db.run("ANALYZE");
  });
}

async function bytesPerOrder(store) {
  return onStore(store, async (db) => {
    const [{ n }] = await db.all("SELECT COUNT(*) AS n FROM sales_orders");
    if (Number(n) === 0) return null;
    if (store.kind === "sqlite") {
      await db.run("PRAGMA wal_checkpoint(TRUNCATE)");
      return statSync(store.url.slice("sqlite:".length)).size / Number(n);
    }
    const [{ bytes }] = await db.all(
      "SELECT pg_total_relation_size('sales_orders') + pg_total_relation_size('order_events') AS bytes",
    );
    return Number(bytes) / Number(n);
  });
}

// Signed once per second, as driver.mjs signs the creates: an RSA signature per listing cost
// this process ~3 ms of CPU each, taken from the same two cores the server and driver share.
let signed = { text: "", signature: "" };

function partnerHeaders(store) {
  const second = Math.floor(Date.now() / 1000);
  const text = `${store.main.client_id}|${second}`;
  if (signed.text !== text)
    signed = { text, signature: sign("sha256", Buffer.from(text), privateKey).toString("base64") };
  return {
    authorization: `Bearer ${store.partnerToken}`,
    "x-client-id": store.main.client_id,
    "x-timestamp": String(second),
    "x-signature": signed.signature,
  };
}

async function login(base, path, body) {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()).token;
}

/** The listing queries, by name; `{cursor}` pages once first and lists the second page. */
function listQueries(now) {
  const iso = (t) => new Date(t).toISOString();
  return {
    newest: "",
    "page 2": "{cursor}",
    status: "status=accepted",
    "recent window": `created_from=${iso(now - 30 * DAY)}`,
    "old window": `created_from=${iso(now - 200 * DAY)}&created_to=${iso(now - 199 * DAY)}`,
    "created_to old": `created_to=${iso(now - 300 * DAY)}`,
    "status in old window": `status=accepted&created_from=${iso(now - 200 * DAY)}&created_to=${iso(now - 170 * DAY)}`,
    "purchase order": "purchase_order_no=SEED-77",
  };
}

async function list(store, which, query) {
  const path = which === "partner" ? "/api/v1/sales-orders" : "/v1/orders";
  const headers =
    which === "partner" ? partnerHeaders(store) : { authorization: `Bearer ${store.userToken}` };
  let q = query;
  if (q === "{cursor}") {
    const first = await fetch(`${store.base}${path}?limit=20`, { headers });
    const cursor = (await first.json()).next_cursor;
    q = cursor ? `cursor=${cursor}` : "";
  }
  const started = performance.now();
  const response = await fetch(`${store.base}${path}?limit=20&${q}`, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}?${q}: ${response.status}`);
  return performance.now() - started;
}

const p95 = (xs) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

/** Creation for `seconds` by driver.mjs in its own process, not blocking this one. */
async function create(store, tag) {
  const { stdout } = await promisify(execFile)(
    "node",
    [
      join(here, "driver.mjs"),
      "--url",
      store.base,
      "--client-id",
      store.other.client_id,
      "--client-secret",
      store.other.client_secret,
      "--key",
      join(dir, "private.pem"),
      "--connections",
      values.connections,
      "--seconds",
      String(seconds),
      "--tag",
      tag,
    ],
    { encoding: "utf8", env: baseEnv },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

const rows = [];
console.log(
  `Growing store: sizes ${sizes.join(", ")}; creation ${seconds} s at ${values.connections} connections; ${samples} samples per listing`,
);
for (const kind of stores) {
  const store = await setUp(kind);
  const server = await spawnServer(cli, store.env);
  store.base = server.url;
  let seeded = 0;
  try {
    store.partnerToken = await login(store.base, "/api/v1/auth/login", {
      client_id: store.main.client_id,
      client_secret: store.main.client_secret,
    });
    store.userToken = await login(store.base, "/v1/auth/login", {
      email: "bench@example.com",
      password: PASSWORD,
    });
    for (const size of sizes) {
      const now = Date.now();
      await seed(store, seeded, size, now - DAY);
      seeded = Math.max(seeded, size);
      const alone = await create(store, `a${size}`);
      // Two connections loop the old window (partner and tenant) while creation runs.
      let stop = false;
      const listed = [];
      const loop = async (which) => {
        while (!stop) listed.push(await list(store, which, listQueries(now)["old window"]));
      };
      const loops = [loop("partner"), loop("tenant")];
      const contended = await create(store, `c${size}`);
      stop = true;
      await Promise.all(loops);
      const row = {
        store: kind,
        size,
        createAlone: alone.ordersPerSecond,
        p99Alone: alone.p99,
        createWithLists: contended.ordersPerSecond,
        p99WithLists: contended.p99,
        listsDuring: listed.length,
        listP95During: listed.length ? p95(listed) : null,
        bytesPerOrder: await bytesPerOrder(store),
        lists: {},
      };
      for (const [name, query] of Object.entries(listQueries(now)))
        for (const which of ["partner", "tenant"]) {
          const times = [];
          for (let i = 0; i < samples; i++) times.push(await list(store, which, query));
          row.lists[`${which} ${name}`] = { p50: median(times), p95: p95(times) };
        }
      rows.push(row);
      const worst = Object.entries(row.lists).sort((a, b) => b[1].p95 - a[1].p95)[0];
      console.log(
        `${kind} ${String(size).padStart(8)} orders: create ${row.createAlone.toFixed(0)}/s (p99 ${row.p99Alone.toFixed(1)} ms), ` +
          `with 2 windowed-list loops ${row.createWithLists.toFixed(0)}/s (${((row.createWithLists / row.createAlone) * 100).toFixed(0)}%, ${row.listsDuring} lists, p95 ${row.listP95During?.toFixed(1)} ms); ` +
          `worst list p95 ${worst[1].p95.toFixed(1)} ms (${worst[0]}); ${row.bytesPerOrder ? `${row.bytesPerOrder.toFixed(0)} B/order` : "-"}`,
      );
      for (const [name, t] of Object.entries(row.lists))
        console.log(
          `    ${name.padEnd(30)} p50 ${t.p50.toFixed(1).padStart(6)} ms  p95 ${t.p95.toFixed(1).padStart(6)} ms`,
        );
    }
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    if (kind === "postgres") {
      const name = new URL(store.url).pathname.slice(1);
      await onServer(PG_SERVER, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`\nJSON ${JSON.stringify(rows)}`);
