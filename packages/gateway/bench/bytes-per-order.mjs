// node bench/bytes-per-order.mjs [--orders 100000] [--store sqlite|postgres]
//
// Bytes per order of the schema before migration 013 (up to 010) and after it, on a
// store of --orders orders, each with its order.created outbox event as creation writes it:
// the table and every index, per store kind. Rows are seeded directly (bench/seed-orders.mjs)
// with 36-character ids in creation order, like the gateway's UUIDv7 ids.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { loadMigrations } from "../dist/store/migrations.js";
import { onServer } from "./common.mjs";
import { seedOrdersStatement } from "./seed-orders.mjs";

const { values } = parseArgs({
  options: { orders: { type: "string", default: "100000" }, store: { type: "string" } },
});
const orders = Number(values.orders);
const stores = values.store ? [values.store] : ["sqlite", "postgres"];
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SCHEMAS = { "before (010)": 10, "after (013)": Number.POSITIVE_INFINITY };
const TABLES = ["sales_orders", "order_events"];
const EVENTS =
  "INSERT INTO order_events (id, partner_id, order_id, type, from_status, to_status, reason, created_at, dispatched_at) SELECT 'e' || id, partner_id, id, 'order.created', NULL, status, NULL, created_at, created_at FROM sales_orders";
const PARTNER =
  "INSERT INTO partners (id, client_id, name, secret_hash, secret_version, status, created_at, updated_at) VALUES ('018f0000-0000-7000-8000-000000000001', 'olc_bytes', 'Bytes', 'x', 1, 'active', 0, 0)";
const seed = (kind) =>
  seedOrdersStatement(kind, {
    partnerId: "018f0000-0000-7000-8000-000000000001",
    count: orders,
    endAt: Date.now(),
    orderedIds: true,
  });

/** { object: bytes } for the order tables and their indexes. */
async function sqliteSizes(upTo) {
  const dir = mkdtempSync(join(tmpdir(), "orderline-bytes-"));
  const db = new Database(join(dir, "bytes.db"));
  try {
    for (const m of loadMigrations("sqlite")) if (m.version <= upTo) db.exec(m.sql);
    db.exec(PARTNER);
    const s = seed("sqlite");
    db.prepare(s.sql).run(...s.params);
    db.exec(EVENTS);
    db.exec("VACUUM");
    const rows = db
      .prepare(
        "SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN ('sales_orders', 'order_events')) GROUP BY name",
      )
      .all();
    return Object.fromEntries(rows.map((r) => [r.name, r.bytes]));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSizes(upTo) {
  const name = `orderline_bytes_${Date.now()}`;
  await onServer(PG_SERVER, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const m of loadMigrations("postgres")) if (m.version <= upTo) await client.query(m.sql);
    await client.query(PARTNER);
    const s = seed("postgres");
    await client.query(s.sql, s.params);
    await client.query(EVENTS);
    await client.query("VACUUM ANALYZE");
    const { rows } = await client.query(
      `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_class c
       WHERE c.oid IN (SELECT t.oid FROM pg_class t WHERE t.relname = ANY($1)
         UNION SELECT i.indexrelid FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname = ANY($1)
         UNION SELECT t.reltoastrelid FROM pg_class t WHERE t.relname = ANY($1) AND t.reltoastrelid <> 0)`,
      [TABLES],
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
  } finally {
    await client.end();
    await onServer(PG_SERVER, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

console.log(`Bytes per order at ${orders} orders (each with its order.created event)`);
for (const kind of stores) {
  const measured = {};
  for (const [label, upTo] of Object.entries(SCHEMAS))
    measured[label] = kind === "sqlite" ? await sqliteSizes(upTo) : await postgresSizes(upTo);
  const names = [...new Set(Object.values(measured).flatMap((m) => Object.keys(m)))].sort();
  console.log(`\n${kind}: bytes per order`);
  console.log(
    `  ${"object".padEnd(42)} ${Object.keys(SCHEMAS)
      .map((l) => l.padStart(13))
      .join(" ")}`,
  );
  for (const n of names)
    console.log(
      `  ${n.padEnd(42)} ${Object.values(measured)
        .map((m) => (m[n] === undefined ? "-" : (m[n] / orders).toFixed(1)).padStart(13))
        .join(" ")}`,
    );
  const totals = Object.values(measured).map(
    (m) => Object.values(m).reduce((a, b) => a + b, 0) / orders,
  );
  console.log(
    `  ${"total".padEnd(42)} ${totals.map((t) => t.toFixed(1).padStart(13)).join(" ")}  (after/before ${(totals[1] / totals[0]).toFixed(2)})`,
  );
}
