/**
 * The PostgreSQL rollback of docs/deploy.md ("Rolling back"), run as written (the dump's folder
 * moved into a temporary directory): a dump before an upgrade, an upgrade that adds tables,
 * columns and constraints and takes orders, then the documented commands bring back exactly the
 * dumped store, which this build opens as current.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { latestVersion } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import type { NewSalesOrder } from "../src/store/store.js";
import { tempDir } from "./helpers.js";
import { freshPostgresUrl, PARTNER, storeKinds } from "./support/stores.js";

const DEPLOY_MD = new URL("../../../docs/deploy.md", import.meta.url);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The shell block of the "Rolling back" section, split where the rollback itself begins. */
function documentedRollback(): { before: string; rollback: string } {
  const text = readFileSync(DEPLOY_MD, "utf8");
  const section = text.slice(text.indexOf("### Rolling back"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("docs/deploy.md has no rollback commands");
  const at = block.indexOf("# To roll back");
  return { before: block.slice(0, at), rollback: block.slice(at) };
}

function sh(script: string, env: Record<string, string>) {
  return spawnSync("bash", ["-euo", "pipefail", "-c", script], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
}

const newOrder = (purchaseOrderNo: string): NewSalesOrder => ({
  id: `ord-${purchaseOrderNo}`,
  partnerId: PARTNER.id,
  purchaseOrderNo,
  customerCode: "C",
  siteCode: "S",
  salesName: "N",
  address: "A",
  products: [{ product_code: "P", quantity: 1 }],
  status: "received",
  createdAt: Date.now(),
});

describe.runIf(storeKinds.includes("postgres"))("the documented PostgreSQL rollback", () => {
  it("restores the pre-upgrade dump over an upgraded store with no error, leaving exactly the dumped store", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    // The file's own database, its public schema, as a store is usually set up.
    const url = await freshPostgresUrl();
    const store = await openStore(url);
    await store.createPartner(PARTNER);
    for (const po of ["PO-1", "PO-2", "PO-3"]) await store.createOrder(newOrder(po));
    await store.close();
    const { before, rollback } = documentedRollback();
    const env = { DATABASE_URL: url };
    const asHere = (script: string) => script.replaceAll("/backups/", `${dir}/`);

    const dumped = sh(asHere(before), env);
    expect(dumped.status, dumped.stderr).toBe(0);

    // What a newer release's migration does: a table referencing orders, a new column, an index,
    // and its schema version.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`
        CREATE TABLE order_notes (id TEXT PRIMARY KEY, order_id TEXT NOT NULL REFERENCES sales_orders(id), note TEXT);
        ALTER TABLE sales_orders ADD COLUMN carrier TEXT;
        ALTER TABLE partners ADD COLUMN region TEXT NOT NULL DEFAULT 'eu';
        CREATE INDEX sales_orders_carrier ON sales_orders (carrier);
        INSERT INTO order_notes VALUES ('n1', 'ord-PO-1', 'fragile');
        INSERT INTO schema_migrations (version, name, applied_at) VALUES (${latestVersion("postgres") + 1}, 'from_a_newer_release', 0);`);
    } finally {
      await client.end();
    }
    const restored = sh(asHere(rollback), env);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stderr).not.toMatch(/error/i);

    const check = new pg.Client({ connectionString: url });
    await check.connect();
    try {
      const tables = await check.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'order_notes'",
      );
      expect(tables.rowCount).toBe(0);
      const columns = await check.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('carrier', 'region')",
      );
      expect(columns.rowCount).toBe(0);
      const orders = await check.query("SELECT purchase_order_no FROM sales_orders ORDER BY seq");
      expect(orders.rows.map((r) => r.purchase_order_no)).toEqual(["PO-1", "PO-2", "PO-3"]);
    } finally {
      await check.end();
    }
    // This build opens it as its own, without migrating (what an older release would see).
    const reopened = await openStore(url, { create: false });
    cleanups.push(() => reopened.close());
    expect(await reopened.schemaVersion()).toBe(latestVersion("postgres"));
    expect((await reopened.findOrder(PARTNER.id, "ord-PO-2"))?.purchaseOrderNo).toBe("PO-2");
  });
});
