#!/usr/bin/env node
/**
 * The tenant listing's search and count on a large store: one tenant, five partners,
 * ORDERS orders each (seeded straight into the tables), timed through the store as the
 * gateway runs them. A search that matches nothing reads the whole bounded window (5,000
 * orders per partner): the worst page. Run after `npm run build -w @orderline/gateway`:
 *   node packages/gateway/bench/tenant-search.mjs [sqlite|postgres] [orders per partner]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { openStore } from "../dist/store/open.js";
import { seedOrdersStatement } from "./seed-orders.mjs";

const kind = process.argv[2] ?? "sqlite";
const ORDERS = Number(process.argv[3] ?? 200_000);
const PARTNERS = 5;
const END = Date.UTC(2026, 0, 1);
const dir = mkdtempSync(join(tmpdir(), "tenant-search-"));
const database = `orderline_bench_${Date.now()}`;
const server = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const url =
  kind === "sqlite"
    ? `sqlite:${join(dir, "bench.db")}`
    : server.replace(/\/[^/]*$/, `/${database}`);

if (kind === "postgres") {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
}
let store = await openStore(url);
await store.tenants.createTenant({ id: "t-1", name: "Bench", createdAt: 0 });
for (let p = 0; p < PARTNERS; p++) {
  await store.createPartner({
    ...{ id: `p-${p}`, clientId: `olc_bench_${p}`, name: `Partner ${p}`, secretHash: "x" },
    ...{ secretVersion: 1, status: "active", createdAt: 0, updatedAt: 0 },
    ...{ previousSecretHash: null, previousSecretUntil: null },
  });
  await store.tenants.setPartnerTenant(`p-${p}`, "t-1");
}
await store.close();
const seeds = Array.from({ length: PARTNERS }, (_, p) =>
  seedOrdersStatement(kind, {
    partnerId: `p-${p}`,
    count: ORDERS,
    firstNumber: p * ORDERS,
    endAt: END,
  }),
);
if (kind === "sqlite") {
  const db = new Database(url.slice("sqlite:".length));
  for (const seed of seeds) db.prepare(seed.sql).run(...seed.params);
  db.close();
} else {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const seed of seeds) await client.query(seed.sql, seed.params);
  await client.query("ANALYZE sales_orders");
  await client.end();
}
store = await openStore(url);

const time = async (name, run, rounds = 20) => {
  await run();
  const ms = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `| ${kind} | ${name} | ${ms[Math.floor(rounds / 2)].toFixed(1)} ms | ${ms.at(-1).toFixed(1)} ms |`,
  );
};
const list = (options) => store.tenants.listTenantOrders("t-1", { limit: 20, ...options });
const count = (options) => store.tenants.countTenantOrders("t-1", { limit: 20, ...options });
console.log(`${PARTNERS} partners × ${ORDERS.toLocaleString("en")} orders`);
console.log("| Store | Request | Median | Max |\n|---|---|---|---|");
await time("page, no search", () => list({}));
await time("count, no search (capped)", () => count({}));
await time('search, frequent match ("seed-1")', () => list({ q: "seed-1" }));
await time("search, no match (full windows)", () => list({ q: "nothing-like-this" }));
await time("count of a search, no match", () => count({ q: "nothing-like-this" }));
await time("search by partner name", () => list({ q: "partner 3" }));
await store.close();
rmSync(dir, { recursive: true, force: true });
if (kind === "postgres") {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`DROP DATABASE ${database}`);
  await admin.end();
}
