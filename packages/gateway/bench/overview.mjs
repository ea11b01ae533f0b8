#!/usr/bin/env node
/**
 * The tenant overview (GET /v1/tenant/overview) on a large store: one tenant, five partners,
 * ORDERS orders each over a year (seeded straight into the tables, in three currencies), the
 * daily tallies built by migration 026's backfill (timed: what an upgrade costs), then the
 * overview read as the route runs it (tenantOverview: the tallies of 30 days and the awaiting
 * count), beside the same figures counted from the orders (what the tallies spare). Run after
 * `npm run build -w @orderline/gateway`:
 *   node packages/gateway/bench/overview.mjs [sqlite|postgres] [orders per partner]
 */
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { tenantOverview } from "../dist/domain/orders/overview.js";
import { openStore } from "../dist/store/open.js";
import { seedOrdersStatement } from "./seed-orders.mjs";
import { onDatabase, seededTenantStore, tableTimer } from "./seeded-tenant.mjs";

const kind = process.argv[2] ?? "sqlite";
const ORDERS = Number(process.argv[3] ?? 200_000);
const PARTNERS = 5;
const END = Date.UTC(2026, 0, 1);
const bench = await seededTenantStore(kind, "overview-bench", PARTNERS);

// The orders, priced in three currencies, as an older release left them: no tallies.
const seeds = Array.from({ length: PARTNERS }, (_, p) =>
  seedOrdersStatement(kind, {
    partnerId: `p-${p}`,
    count: ORDERS,
    firstNumber: p * ORDERS,
    endAt: END,
  }),
);
const PRICE = `UPDATE sales_orders SET currency = CASE seq % 3 WHEN 0 THEN 'IDR' WHEN 1 THEN 'EUR' ELSE 'USD' END,
  products = ${kind === "sqlite" ? '\'[{"product_code":"P-1","quantity":2,"unit_price":19.99}]\'' : '\'[{"product_code":"P-1","quantity":2,"unit_price":19.99}]\'::jsonb'}`;
const migration = readFileSync(
  new URL(`../src/store/migrations/${kind}/026_order_day_totals.sql`, import.meta.url),
  "utf8",
);
const BACKFILL = migration.slice(migration.indexOf("INSERT INTO order_day_totals"));
let backfillMs;
await onDatabase(kind, bench.url, async (run) => {
  for (const seed of seeds) await run(seed.sql, seed.params);
  await run(PRICE);
  const start = performance.now();
  await run(BACKFILL);
  backfillMs = performance.now() - start;
});
const store = await openStore(bench.url);
const time = tableTimer(kind);

const orders = PARTNERS * ORDERS;
console.log(`${orders} orders; migration 026 backfill: ${(backfillMs / 1000).toFixed(1)} s`);
const tallies = await store.tenants.orderTallies("t-1", 0, "received");
console.log(`${tallies.days.length} tally rows in all (a year); awaiting ${tallies.awaiting}`);
console.log("| store | read | median | max |");
console.log("| --- | --- | ---: | ---: |");
const overview = await tenantOverview(store.tenants, () => END, "t-1", 30);
const counted = overview.per_day.reduce((n, d) => n + d.total, 0);
await time("overview, 30 days (tallies)", () =>
  tenantOverview(store.tenants, () => END, "t-1", 30),
);
await time("overview, 90 days (tallies)", () =>
  tenantOverview(store.tenants, () => END, "t-1", 90),
);
// The same 30 days counted from the orders: what the page would cost without the tallies.
const from = Math.floor(END / 86_400_000) - 29;
const SCAN = `SELECT o.status, o.currency, o.partner_id, o.created_at / 86400000 AS day, count(*) AS n
  FROM sales_orders o JOIN partners p ON p.id = o.partner_id
  WHERE p.tenant_id = 't-1' AND o.created_at >= ${from * 86_400_000}
  GROUP BY 1, 2, 3, 4`;
const AWAITING = `SELECT count(*) AS n FROM sales_orders o JOIN partners p ON p.id = o.partner_id
  WHERE p.tenant_id = 't-1' AND o.status = 'received'`;
if (kind === "sqlite") {
  const db = new Database(bench.url.slice("sqlite:".length), { readonly: true });
  await time(
    "same figures counted from orders (30-day group by + awaiting count)",
    () => {
      db.prepare(SCAN).all();
      return db.prepare(AWAITING).get();
    },
    5,
  );
  db.close();
} else {
  const client = new pg.Client({ connectionString: bench.url });
  await client.connect();
  await time(
    "same figures counted from orders (30-day group by + awaiting count)",
    async () => {
      await client.query(SCAN);
      return client.query(AWAITING);
    },
    5,
  );
  await client.end();
}
console.log(`(30 days hold ${counted} orders)`);
await store.close();
await bench.remove();
