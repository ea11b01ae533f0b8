// What the tenant read benches (tenant-search.mjs, overview.mjs) share: a fresh store holding
// one tenant with several partners, statements run straight on its database (seeding past the
// store's API), and the median/max timing table they print.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { openStore } from "../dist/store/open.js";

const SERVER = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function onServer(sql) {
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

/**
 * A migrated store (a temporary SQLite file, or a new PostgreSQL database) with tenant "t-1" and
 * partners p-0 … p-(partners-1) in it. `remove()` deletes the file or drops the database.
 */
export async function seededTenantStore(kind, name, partners) {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const database = `orderline_bench_${Date.now()}`;
  const url =
    kind === "sqlite"
      ? `sqlite:${join(dir, "bench.db")}`
      : SERVER.replace(/\/[^/]*$/, `/${database}`);
  if (kind === "postgres") await onServer(`CREATE DATABASE ${database}`);
  const store = await openStore(url);
  await store.tenants.createTenant({ id: "t-1", name: "Bench", createdAt: 0 });
  for (let p = 0; p < partners; p++) {
    await store.createPartner({
      ...{ id: `p-${p}`, clientId: `olc_bench_${p}`, name: `Partner ${p}`, secretHash: "x" },
      ...{ secretVersion: 1, status: "active", createdAt: 0, updatedAt: 0 },
      ...{ previousSecretHash: null, previousSecretUntil: null },
    });
    await store.tenants.setPartnerTenant(`p-${p}`, "t-1");
  }
  await store.close();
  return {
    url,
    async remove() {
      rmSync(dir, { recursive: true, force: true });
      if (kind === "postgres") await onServer(`DROP DATABASE ${database}`);
    },
  };
}

/**
 * Calls `work(run)` with `run(sql, params?)` on the store's own database connection (a
 * statement with parameters, or a script without), then refreshes PostgreSQL's statistics.
 */
export async function onDatabase(kind, url, work) {
  if (kind === "sqlite") {
    const db = new Database(url.slice("sqlite:".length));
    try {
      await work((sql, params) => (params ? db.prepare(sql).run(...params) : db.exec(sql)));
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work((sql, params) => client.query(sql, params));
    await client.query("ANALYZE");
  } finally {
    await client.end();
  }
}

/** Times `run` `rounds` times after one warm-up and prints a `| kind | name | median | max |` row. */
export function tableTimer(kind) {
  return async (name, run, rounds = 20) => {
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
}
