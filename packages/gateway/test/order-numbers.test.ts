/**
 * Order numbers are per partner: a partner's orders are SO-00000001, SO-00000002 … whatever
 * other partners send, so a number reveals nothing of anybody else's volume. Both stores, over
 * a real socket, with concurrent orders in one group commit.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { sqlitePathOf } from "../src/config/config.js";
import { loadMigrations } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import {
  createPartner,
  order,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface OrderAnswer {
  token: string;
  code?: string;
  data: { id: string; order_number: string };
}

describe.each(storeKinds)("order numbers (%s store)", (kind) => {
  it("count each partner's orders alone, skip nothing on a duplicate or a replay", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const gw = await startGateway({
      dir,
      config: { databaseUrl: await freshDatabaseUrl(kind, dir) },
    });
    cleanups.push(() => gw.close());
    const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as OrderAnswer };
    };
    const tokens = new Map<TestPartner, string>();
    const create = async (p: TestPartner, fields: Record<string, unknown> = {}, key?: string) => {
      if (!tokens.has(p)) {
        const login = await post("/api/v1/auth/login", {
          client_id: p.clientId,
          client_secret: p.clientSecret,
        });
        tokens.set(p, login.body.token);
      }
      const headers = signedHeaders(
        p,
        tokens.get(p) as string,
        String(Math.floor(Date.now() / 1000)),
      );
      return post("/api/v1/sales-orders", order(fields), {
        ...headers,
        ...(key ? { "idempotency-key": key } : {}),
      });
    };
    const numberOf = async (p: TestPartner, fields: Record<string, unknown> = {}, key?: string) => {
      const created = await create(p, fields, key);
      expect(created.status).toBe(201);
      return created.body.data.order_number;
    };

    const acme = await createPartner(gw, rsaKeys(), "Acme");
    const globex = await createPartner(gw, rsaKeys(), "Globex");
    expect(await numberOf(acme, { purchase_order_no: "PO-1" })).toBe("SO-00000001");
    expect(await numberOf(acme, {}, "key-1")).toBe("SO-00000002");
    // Another partner's first order is its own number 1, not the store's third order.
    expect(await numberOf(globex)).toBe("SO-00000001");
    // A refused duplicate and an idempotent replay take no number.
    expect((await create(acme, { purchase_order_no: "PO-1" })).body.code).toBe(
      "duplicate_purchase_order",
    );
    expect(await numberOf(acme, {}, "key-1")).toBe("SO-00000002");
    expect(await numberOf(acme)).toBe("SO-00000003");

    // Concurrent orders of both partners (batched together): each partner's numbers run on
    // without a gap or a repeat.
    const burst = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        numberOf(i % 3 === 0 ? globex : acme, { purchase_order_no: `BURST-${i}` }),
      ),
    );
    const acmeNumbers = burst.filter((_, i) => i % 3 !== 0).sort();
    const globexNumbers = burst.filter((_, i) => i % 3 === 0).sort();
    const expected = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `SO-${String(from + i).padStart(8, "0")}`);
    expect(acmeNumbers).toEqual(expected(4, 16));
    expect(globexNumbers).toEqual(expected(2, 8));
  });
});

/** Runs SQL (`?` placeholders) straight on a store's database, beside the gateway. */
async function rawDatabase(kind: StoreKind, url: string) {
  if (kind === "sqlite") {
    const db = new Database(sqlitePathOf(url));
    return {
      run: async (sql: string, params: unknown[] = []) => {
        if (params.length === 0) db.exec(sql);
        else db.prepare(sql).run(...params);
      },
      close: async () => db.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    run: async (sql: string, params: unknown[] = []) => {
      // Whole migrations go as they are: their `?` is jsonpath, not a placeholder.
      if (params.length === 0) return void (await client.query(sql));
      let n = 0;
      // Migrations run without parameters and may hold a `?` of their own (jsonpath in 003).
      await client.query(params.length ? sql.replace(/\?/g, () => `$${++n}`) : sql, params);
    },
    close: () => client.end(),
  };
}

describe.each(storeKinds)("upgrading to per-partner numbers (%s store)", (kind) => {
  it("keeps every number already handed out and continues each partner above its highest", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    // A store as the previous release left it: every migration before this one, and orders
    // numbered by the store-wide sequence (Acme 1 and 3, Globex 2).
    const raw = await rawDatabase(kind, url);
    try {
      await raw.run(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
      );
      for (const migration of loadMigrations(kind)) {
        if (migration.name === "partner_order_numbers") break;
        await raw.run(migration.sql);
        await raw.run(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)",
          [migration.version, migration.name],
        );
      }
      for (const id of ["acme", "globex"])
        await raw.run(
          "INSERT INTO partners (id, client_id, name, secret_hash, secret_version, status, created_at, updated_at) VALUES (?, ?, ?, 'x', 1, 'active', 0, 0)",
          [id, `olc_${id}`, id],
        );
      for (const [id, partner] of [
        ["o1", "acme"],
        ["o2", "globex"],
        ["o3", "acme"],
      ])
        await raw.run(
          "INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at) VALUES (?, ?, NULL, 'C', 'S', 'N', 'A', '[]', 'received', 0)",
          [id, partner],
        );
    } finally {
      await raw.close();
    }

    const store = await openStore(url);
    cleanups.push(() => store.close());
    expect((await store.findOrder("acme", "o1"))?.partnerSeq).toBe(1);
    expect((await store.findOrder("globex", "o2"))?.partnerSeq).toBe(2);
    expect((await store.findOrder("acme", "o3"))?.partnerSeq).toBe(3);
    const next = async (partnerId: string, id: string) => {
      const outcome = await store.createOrder({
        id,
        partnerId,
        purchaseOrderNo: null,
        customerCode: "C",
        siteCode: "S",
        salesName: "N",
        address: "A",
        products: [{ product_code: "P", quantity: 1 }],
        status: "received",
        createdAt: 1,
      });
      return outcome.kind === "created" ? outcome.order.partnerSeq : undefined;
    };
    expect(await next("globex", "o4")).toBe(3);
    expect(await next("acme", "o5")).toBe(4);
  });
});
