import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";
import { loadMigrations } from "../src/store/migrations.js";
import { openStore } from "../src/store/open.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { NewSalesOrder, Store } from "../src/store/store.js";
import { tempDir } from "./helpers.js";
import { freshDatabaseUrl, PARTNER, type StoreKind, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function withPartner(store: Store): Promise<Store> {
  await store.createPartner(PARTNER);
  return store;
}

async function sqliteStore() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, "store.db");
  const store = new SqliteStore(path);
  await store.migrate();
  return { store: await withPartner(store), path };
}

/** A fresh URL of `kind` and a store opened on it (closed after the test). */
async function fresh(kind: StoreKind) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const url = await freshDatabaseUrl(kind, dir);
  const open = async () => {
    const store = await openStore(url);
    cleanups.push(() => store.close());
    return store;
  };
  return { url, open };
}

const newOrder = (overrides: Partial<NewSalesOrder> = {}): NewSalesOrder => ({
  id: newId(),
  partnerId: "partner-1",
  purchaseOrderNo: null,
  customerCode: "C",
  siteCode: "S",
  salesName: "N",
  address: "A",
  products: [{ product_code: "P", quantity: 1 }],
  status: "received",
  createdAt: Date.now(),
  ...overrides,
});

describe("migrations", () => {
  it("exist in the same versions, with the same names, for every dialect", () => {
    const names = (d: "sqlite" | "postgres") =>
      loadMigrations(d).map((m) => `${m.version}_${m.name}`);
    expect(names("postgres")).toEqual(names("sqlite"));
    expect(names("sqlite")[0]).toBe("1_initial");
  });
});

describe.each(storeKinds)("Store contract (%s)", (kind) => {
  it("applies the migrations once, even when several processes start together", async () => {
    const { open } = await fresh(kind);
    const stores = await Promise.all([open(), open(), open()]);
    const latest = loadMigrations(kind).at(-1)?.version;
    for (const store of stores) expect(await store.schemaVersion()).toBe(latest);
    await stores[0]?.migrate();
    expect(await stores[1]?.schemaVersion()).toBe(latest);
  });

  it("stores partners, keys and signing keys", async () => {
    const store = await withPartner(await (await fresh(kind)).open());
    // A new partner signs with version 1 (or 2) until moved to version 2.
    expect(await store.findPartnerByClientId("olc_one")).toEqual({
      ...PARTNER,
      signatureVersion: 1,
    });
    expect(await store.countPartners()).toBe(1);
    expect(await store.rotatePartnerSecret("partner-1", "y", 5, 1_000)).toBe(2);
    await store.setPartnerStatus("partner-1", "disabled", 6);
    expect(await store.findPartnerByClientId("olc_one")).toMatchObject({
      secretHash: "y",
      secretVersion: 2,
      previousSecretHash: "x",
      previousSecretUntil: 1_000,
      status: "disabled",
      updatedAt: 6,
    });
    // Rotating again replaces the previous secret; without a grace period none remains.
    expect(await store.rotatePartnerSecret("partner-1", "z", 7, 2_000)).toBe(3);
    expect(await store.findPartnerByClientId("olc_one")).toMatchObject({
      secretHash: "z",
      previousSecretHash: "y",
      previousSecretUntil: 2_000,
    });
    expect(await store.rotatePartnerSecret("partner-1", "w", 8, null)).toBe(4);
    expect(await store.findPartnerByClientId("olc_one")).toMatchObject({
      secretHash: "w",
      previousSecretHash: null,
      previousSecretUntil: null,
    });
    await store.setPartnerSignatureVersion("partner-1", 2, 9);
    expect(await store.findPartnerByClientId("olc_one")).toMatchObject({
      signatureVersion: 2,
      updatedAt: 9,
    });
    const key = {
      id: "key-1",
      partnerId: "partner-1",
      fingerprint: "fp",
      publicKeyPem: "pem",
      bits: 2048,
      createdAt: 1,
      revokedAt: null,
    };
    await store.addPartnerKey(key);
    expect(await store.revokePartnerKey("partner-1", "key-1", 9)).toBe(true);
    expect(await store.revokePartnerKey("partner-1", "key-1", 10)).toBe(false);
    expect(await store.listPartnerKeys("partner-1")).toEqual([{ ...key, revokedAt: 9 }]);
    const signing = {
      kid: "k1",
      alg: "EdDSA",
      publicJwk: "{}",
      privateKeySealed: "s",
      createdAt: 1,
      signsFrom: 301,
      retiredAt: null,
    };
    await store.addSigningKey(signing);
    await store.retireSigningKey("k1", 7);
    expect(await store.listSigningKeys()).toEqual([{ ...signing, retiredAt: 7 }]);
  });

  it("lets each token be refreshed once, even when refreshes race", async () => {
    const { open } = await fresh(kind);
    const [a, b] = [await withPartner(await open()), await open()];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).recordTokenRefresh("jti-1", "partner-1", `new-${i}`, i),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("lets each request nonce be claimed once, when the same and other requests race on two instances", async () => {
    const { open } = await fresh(kind);
    const [a, b] = [await open(), await open()];
    const expiresAt = Date.now() + 60_000;
    // Claims arriving together go in one statement on PostgreSQL: a repeat inside one batch,
    // in another batch of the same instance, or on the other instance must all be refused.
    const same = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).tenants.claimRequestNonce("n-1", expiresAt),
      ),
    );
    expect(same.filter(Boolean)).toHaveLength(1);
    const distinct = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).tenants.claimRequestNonce(`n-${i + 2}`, expiresAt),
      ),
    );
    expect(distinct.every(Boolean)).toBe(true);
    expect(await a.tenants.claimRequestNonce("n-5", expiresAt)).toBe(false);
  });

  it("makes one order per purchase_order_no and replays an Idempotency-Key, under races", async () => {
    const { open } = await fresh(kind);
    const [a, b] = [await withPartner(await open()), await open()];
    const po = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).createOrder(newOrder({ purchaseOrderNo: "PO-1" })),
      ),
    );
    expect(po.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(po.filter((r) => r.kind === "duplicate_purchase_order")).toHaveLength(29);

    const claim = { key: "idem-1", requestHash: "h1" };
    const idem = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).createOrder(newOrder(), claim)),
    );
    const created = idem.filter((r) => r.kind === "created");
    expect(created).toHaveLength(1);
    const id = created[0]?.kind === "created" ? created[0].order.id : "";
    for (const r of idem.filter((r) => r.kind !== "created"))
      expect(r).toMatchObject({ kind: "replayed", order: { id } });
    expect(await a.createOrder(newOrder(), { key: "idem-1", requestHash: "h2" })).toEqual({
      kind: "idempotency_mismatch",
    });
    // A key whose order was refused (duplicate purchase_order_no) is not used up.
    const refused = await a.createOrder(newOrder({ purchaseOrderNo: "PO-1" }), {
      key: "idem-2",
      requestHash: "h",
    });
    expect(refused.kind).toBe("duplicate_purchase_order");
    const retried = await b.createOrder(newOrder({ purchaseOrderNo: "PO-2" }), {
      key: "idem-2",
      requestHash: "h",
    });
    expect(retried.kind).toBe("created");
    expect((await a.listOrders("partner-1", { limit: 100 })).orders).toHaveLength(3);
  });

  it("stores a create's nonce with its order only: one order per nonce under races, none kept by a refused or failed create", async () => {
    const { open } = await fresh(kind);
    const [a, b] = [await withPartner(await open()), await open()];
    const nonce = (key: string) => ({ key, expiresAt: Date.now() + 60_000 });
    // One request sent 30 times at once to two instances: in one batch, across batches, across
    // instances.
    const raced = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).createOrder(newOrder(), undefined, nonce("n-raced")),
      ),
    );
    expect(raced.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(raced.filter((r) => r.kind === "request_replayed")).toHaveLength(29);
    // A guard nonce claimed on its own sees it taken: the two share one table.
    expect(await a.tenants.claimRequestNonce("n-raced", Date.now() + 60_000)).toBe(false);

    // Refused (purchase_order_no taken) or failed (no such partner): the nonce stays free, and
    // the same request sent again is decided afresh.
    expect((await a.createOrder(newOrder({ purchaseOrderNo: "PO-N" }))).kind).toBe("created");
    const refused = newOrder({ purchaseOrderNo: "PO-N" });
    for (let i = 0; i < 2; i++)
      expect((await b.createOrder(refused, undefined, nonce("n-refused"))).kind).toBe(
        "duplicate_purchase_order",
      );
    // The same purchase_order_no raced under 30 nonces on two instances (on PostgreSQL some lose
    // after claiming theirs, to a commit after their statement's snapshot): only the winner's
    // nonce stays.
    const po = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).createOrder(
          newOrder({ purchaseOrderNo: "PO-RACED" }),
          undefined,
          nonce(`n-po-${i}`),
        ),
      ),
    );
    expect(po.filter((r) => r.kind === "created")).toHaveLength(1);
    const free = await Promise.all(
      po.map((_, i) => a.tenants.claimRequestNonce(`n-po-${i}`, Date.now() + 60_000)),
    );
    expect(free.filter((claimed) => !claimed)).toHaveLength(1);
    await expect(
      a.createOrder(newOrder({ partnerId: "no-such-partner" }), undefined, nonce("n-failed")),
    ).rejects.toThrow();
    expect((await a.createOrder(newOrder(), undefined, nonce("n-failed"))).kind).toBe("created");

    // With an Idempotency-Key the key decides first: the exact request again replays; the same
    // signed request under another key is a replay; a key whose request was refused as a replay
    // is not used up.
    const keyed = newOrder();
    const first = await a.createOrder(keyed, { key: "k-1", requestHash: "h" }, nonce("n-keyed"));
    expect(first.kind).toBe("created");
    const again = await b.createOrder(
      newOrder(),
      { key: "k-1", requestHash: "h" },
      nonce("n-keyed"),
    );
    expect(again).toMatchObject({ kind: "replayed", order: { id: keyed.id } });
    const otherKey = { key: "k-2", requestHash: "h" };
    expect(await b.createOrder(newOrder(), otherKey, nonce("n-keyed"))).toEqual({
      kind: "request_replayed",
    });
    expect((await b.createOrder(newOrder(), otherKey, nonce("n-fresh"))).kind).toBe("created");
    const stored = await a.listOrders("partner-1", { limit: 100 });
    expect(stored.orders).toHaveLength(6);
  });

  it("gives orders strictly increasing seqs and pages newest first without gaps", async () => {
    const store = await withPartner(await (await fresh(kind)).open());
    const created = [];
    for (let i = 0; i < 7; i++)
      created.push(await store.createOrder(newOrder({ purchaseOrderNo: `N${i}` })));
    const seqs = created.map((r) => (r.kind === "created" ? r.order.seq : 0));
    expect(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] as number))).toBe(true);
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await store.listOrders(
        "partner-1",
        before === undefined ? { limit: 3 } : { limit: 3, beforeSeq: before },
      );
      seen.push(...page.orders.map((o) => o.purchaseOrderNo as string));
      if (page.nextBeforeSeq === null) break;
      before = page.nextBeforeSeq;
    }
    expect(seen).toEqual(["N6", "N5", "N4", "N3", "N2", "N1", "N0"]);
    const first = created[0];
    if (first?.kind !== "created") throw new Error("not created");
    expect(await store.findOrder("partner-1", first.order.id)).toEqual(first.order);
    expect(await store.findOrder("someone-else", first.order.id)).toBeUndefined();
  });

  it("refuses an order for an unknown partner without touching other orders", async () => {
    const store = await withPartner(await (await fresh(kind)).open());
    const results = await Promise.allSettled([
      store.createOrder(newOrder({ purchaseOrderNo: "A" })),
      store.createOrder(newOrder({ partnerId: "no-such-partner" })),
      store.createOrder(newOrder({ purchaseOrderNo: "B" })),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const page = await store.listOrders("partner-1", { limit: 10 });
    expect(page.orders.map((o) => o.purchaseOrderNo)).toEqual(["B", "A"]);
  });
});

describe("SqliteStore", () => {
  it("runs in WAL mode and records applied migrations", async () => {
    const { store, path } = await sqliteStore();
    await store.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT version, name FROM schema_migrations").all()).toEqual(
      loadMigrations("sqlite").map(({ version, name }) => ({ version, name })),
    );
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("finishes pending order commits before closing", async () => {
    const { store, path } = await sqliteStore();
    const pending = Array.from({ length: 20 }, (_, i) =>
      store.createOrder(newOrder({ purchaseOrderNo: `P${i}` })),
    );
    await store.close();
    expect((await Promise.all(pending)).every((r) => r.kind === "created")).toBe(true);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT COUNT(*) AS n FROM sales_orders").get()).toEqual({ n: 20 });
    db.close();
  });
});
