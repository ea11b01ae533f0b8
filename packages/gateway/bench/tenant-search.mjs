#!/usr/bin/env node
/**
 * The tenant listing's search and count on a large store: one tenant, five partners,
 * ORDERS orders each (seeded straight into the tables), timed through the store as the
 * gateway runs them. A search that matches nothing reads the whole bounded window (5,000
 * orders per partner): the worst page. Run after `npm run build -w @orderline/gateway`:
 *   node packages/gateway/bench/tenant-search.mjs [sqlite|postgres] [orders per partner]
 */
import { openStore } from "../dist/store/open.js";
import { seedOrdersStatement } from "./seed-orders.mjs";
import { onDatabase, seededTenantStore, tableTimer } from "./seeded-tenant.mjs";

const kind = process.argv[2] ?? "sqlite";
const ORDERS = Number(process.argv[3] ?? 200_000);
const PARTNERS = 5;
const END = Date.UTC(2026, 0, 1);
const bench = await seededTenantStore(kind, "tenant-search", PARTNERS);
const seeds = Array.from({ length: PARTNERS }, (_, p) =>
  seedOrdersStatement(kind, {
    partnerId: `p-${p}`,
    count: ORDERS,
    firstNumber: p * ORDERS,
    endAt: END,
  }),
);
await onDatabase(kind, bench.url, async (run) => {
  for (const seed of seeds) await run(seed.sql, seed.params);
});
const store = await openStore(bench.url);

const time = tableTimer(kind);
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
await bench.remove();
