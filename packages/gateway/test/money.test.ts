import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { loadMigrations } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import {
  createPartner,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const TRICKY = ["19.99", "0.1", "1234567.8901", "0.0001", "99999999999.9999", "0", "0.3"];

describe.each(storeKinds)("exact money over HTTP (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let partner: TestPartner;
  let token: string;

  beforeAll(async () => {
    gw = await startGateway({ store: kind });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    partner = await createPartner(gw);
    token = await login(gw, partner);
  });
  afterAll(async () => {
    await gw.close();
  });

  const signed = () => signedHeaders(partner, token, String(Math.floor(Date.now() / 1000)));
  /** The raw JSON text, so a price is compared as the digits on the wire, not as a float. */
  async function send(method: string, path: string, body?: string) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...signed(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, text: await response.text() };
  }
  /** An order whose one line has the price as written in `priceJson` (number or string literal). */
  const orderWithPrice = (priceJson: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify(
      order({ products: [{ product_code: "P", quantity: 1, unit_price: "@@" }], ...extra }),
    ).replace('"@@"', priceJson);

  it("returns every price exactly as sent, as a number or a decimal string, on create and read", async () => {
    for (const price of TRICKY) {
      for (const literal of [price, `"${price}"`]) {
        const created = await send("POST", "/api/v1/sales-orders", orderWithPrice(literal));
        expect(created.status, `${literal}: ${created.text}`).toBe(201);
        expect(created.text).toContain(`"unit_price":${price},`);
        const id = JSON.parse(created.text).data.id as string;
        const read = await send("GET", `/api/v1/sales-orders/${id}`);
        expect(read.text, literal).toContain(`"unit_price":${price},`);
      }
    }
  });

  it("refuses more than 4 decimal places, naming the field, and stores nothing", async () => {
    const before = JSON.parse((await send("GET", "/api/v1/sales-orders?limit=100")).text).data
      .length;
    for (const literal of [
      "0.123456789",
      "0.12345",
      '"19.99001"',
      "-1",
      '"1e3"',
      "100000000000",
      '"abc"',
    ]) {
      const refused = await send("POST", "/api/v1/sales-orders", orderWithPrice(literal));
      expect(refused.status, literal).toBe(400);
      const problem = JSON.parse(refused.text);
      expect(problem.code).toBe("validation_failed");
      expect(problem.errors).toEqual([
        expect.objectContaining({ in: "body", pointer: "/products/0/unit_price" }),
      ]);
    }
    const five = JSON.parse(
      (await send("POST", "/api/v1/sales-orders", orderWithPrice("0.12345"))).text,
    );
    expect(five.detail).toMatch(/more than 4 decimal places/);
    const after = JSON.parse((await send("GET", "/api/v1/sales-orders?limit=100")).text).data
      .length;
    expect(after).toBe(before);
  });

  it("takes an optional ISO 4217 currency, null when not named", async () => {
    const withEuro = JSON.parse(
      (await send("POST", "/api/v1/sales-orders", orderWithPrice("19.99", { currency: "EUR" })))
        .text,
    );
    expect(withEuro.data.currency).toBe("EUR");
    const read = JSON.parse((await send("GET", `/api/v1/sales-orders/${withEuro.data.id}`)).text);
    expect(read.data.currency).toBe("EUR");
    const without = JSON.parse(
      (await send("POST", "/api/v1/sales-orders", orderWithPrice("1"))).text,
    );
    expect(without.data.currency).toBeNull();
    for (const currency of ["eur", "XYZ", "EURO", "XAU", ""]) {
      const refused = await send("POST", "/api/v1/sales-orders", orderWithPrice("1", { currency }));
      expect(refused.status, currency).toBe(400);
      expect(JSON.parse(refused.text).errors).toEqual([
        expect.objectContaining({ in: "body", pointer: "/currency" }),
      ]);
    }
  });
});

describe.each(storeKinds)("prices in the store (%s store)", (kind) => {
  it("refuses a price with 5 decimal places before it joins a batch", async () => {
    const { dir, cleanup } = tempDir();
    const url = await freshDatabaseUrl(kind, dir);
    const store = await openStore(url);
    try {
      await store.createPartner({
        id: "p1",
        clientId: "client-1",
        name: "P",
        secretHash: "h",
        secretVersion: 1,
        status: "active",
        createdAt: 0,
        updatedAt: 0,
        previousSecretHash: null,
        previousSecretUntil: null,
      });
      const line = (unit_price: number) => [{ product_code: "A", quantity: 1, unit_price }];
      const orderOf = (id: string, unit_price: number) => ({
        id,
        partnerId: "p1",
        purchaseOrderNo: null,
        customerCode: "C",
        siteCode: "S",
        salesName: "N",
        address: "A",
        products: line(unit_price),
        status: "received",
        createdAt: 0,
      });
      const [good, bad] = await Promise.allSettled([
        store.createOrder(orderOf("o1", 19.99)),
        store.createOrder(orderOf("o2", 0.12345)),
      ]);
      expect(good.status).toBe("fulfilled");
      expect(String((bad as PromiseRejectedResult).reason)).toMatch(
        /unit_price has more than 4 decimal places/,
      );
    } finally {
      await store.close();
      cleanup();
    }
  });
});

describe.each(storeKinds)("migrating existing orders (%s store)", (kind) => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("keeps every stored price exactly, including ones written before the 4-place rule", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    // A store as version 2 left it, with prices as the old code wrote them.
    const products =
      '[{"product_code":"A","quantity":1,"unit_price":19.99},{"product_code":"B","quantity":2,"unit_price":0.123456789},' +
      '{"product_code":"C","quantity":3,"unit_price":1234567.8901},{"product_code":"D","quantity":4}]';
    const old = loadMigrations(kind).filter((m) => m.version <= 2);
    const statements = [
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
      ...old.flatMap((m) => [
        m.sql,
        `INSERT INTO schema_migrations VALUES (${m.version}, '${m.name}', 0)`,
      ]),
      "INSERT INTO partners VALUES ('p1', 'client-1', 'Old', 'h', 1, 'active', 0, 0, NULL)",
      `INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at)
       VALUES ('o1', 'p1', NULL, 'C', 'S', 'N', 'A', '${products}', 'received', 0)`,
    ];
    if (kind === "sqlite") {
      const db = new Database(url.slice("sqlite:".length));
      for (const sql of statements) db.exec(sql);
      db.close();
    } else {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const sql of statements) await client.query(sql);
      await client.end();
    }
    const store = await openStore(url);
    cleanups.push(() => store.close());
    expect(await store.schemaVersion()).toBeGreaterThanOrEqual(3);
    const migrated = await store.findOrder("p1", "o1");
    expect(JSON.stringify(migrated?.products.map((p) => p.unit_price))).toBe(
      "[19.99,0.123456789,1234567.8901,null]",
    );
    expect(migrated?.currency).toBeNull();
  });
});
