import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";
import {
  type CreateJob,
  createOrderWriter,
  fromWireResult,
  toBatchResult,
  toWireResult,
} from "../src/store/sqlite/order-writer.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { tempDir } from "./helpers.js";
import { PARTNER } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated store file with the test partner, opened as the writer thread opens it. */
async function writerOnFreshStore() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, "store.db");
  const store = new SqliteStore(path, { writerThread: false, readerThreads: false });
  await store.migrate();
  await store.createPartner(PARTNER);
  await store.close();
  const db = new Database(path);
  db.pragma("foreign_keys = ON");
  cleanups.push(() => db.close());
  return { db, write: createOrderWriter(db) };
}

let n = 0;
function job(overrides: Partial<CreateJob["order"]> = {}, nonce = `nonce-${++n}`): CreateJob {
  const createdAt = Date.now();
  return {
    order: {
      id: newId(createdAt),
      partnerId: PARTNER.id,
      purchaseOrderNo: `PO-${++n}`,
      currency: "IDR",
      customerCode: "C-1",
      siteCode: "S-1",
      salesName: "Ayu",
      address: "Jl. Sudirman 1",
      products: [{ product_code: "P-1", quantity: 2, unit_price: 15000 }],
      status: "received",
      createdAt,
      ...overrides,
    },
    idempotency: undefined,
    nonce: { key: nonce, expiresAt: createdAt + 60_000 },
  };
}

const ordersIn = (db: Database.Database) =>
  (
    db.prepare("SELECT purchase_order_no FROM sales_orders ORDER BY seq").all() as {
      purchase_order_no: string;
    }[]
  ).map((r) => r.purchase_order_no);

// A batch runs without a savepoint per order (they cost a fifth of the writer's work); a job
// that throws must still leave the others of its batch created, and only its own nonce free.
describe("a batch of order creations on SQLite", () => {
  it("creates the others when one job throws, and frees only the failed job's nonce", async () => {
    const { db, write } = await writerOnFreshStore();
    const first = job();
    // A currency the table's CHECK refuses: the insert throws inside the batch.
    const failing = job({ currency: "idr" });
    const third = job();
    const results = write([first, failing, third]);

    expect(results.map((r) => (r.ok ? r.value.kind : "error"))).toEqual([
      "created",
      "error",
      "created",
    ]);
    expect(results[1]?.ok === false && results[1].error.message).toMatch(/CHECK constraint/);
    expect(ordersIn(db)).toEqual([first.order.purchaseOrderNo, third.order.purchaseOrderNo]);
    // The partner's numbers stay gapless: the failed job took none.
    const numbers = results.flatMap((r) =>
      r.ok && r.value.kind === "created" ? [r.value.partnerSeq] : [],
    );
    expect(numbers).toEqual([1, 2]);

    // The same requests again: the created one is a replay, the failed one may go through now.
    const again = write([
      job({ purchaseOrderNo: "PO-again-1" }, first.nonce?.key),
      job({ purchaseOrderNo: "PO-again-2" }, failing.nonce?.key),
    ]);
    expect(again.map((r) => (r.ok ? r.value.kind : "error"))).toEqual([
      "request_replayed",
      "created",
    ]);
  });

  it("counts only the created orders in the partner's counter and day tally when a job fails after its order row", async () => {
    const { db, write } = await writerOnFreshStore();
    // No request hash: the key's row, the job's last write, refuses it (NOT NULL), after the
    // order and its event went in; the job's savepoint takes both back.
    const failing = job();
    failing.idempotency = { key: "K-1", requestHash: null as unknown as string };
    const results = write([job(), failing, job(), job({ currency: "USD" })]);

    expect(results.map((r) => (r.ok ? r.value.kind : "error"))).toEqual([
      "created",
      "error",
      "created",
      "created",
    ]);
    expect(
      results.flatMap((r) => (r.ok && r.value.kind === "created" ? [r.value.partnerSeq] : [])),
    ).toEqual([1, 2, 3]);
    expect(
      db.prepare("SELECT orders_issued FROM partners WHERE id = ?").pluck().get(PARTNER.id),
    ).toBe(3);
    expect(
      db.prepare("SELECT currency, orders, amount FROM order_day_totals ORDER BY currency").all(),
    ).toEqual([
      { currency: "IDR", orders: 2, amount: 60000 },
      { currency: "USD", orders: 1, amount: 3000000 },
    ]);
    expect(db.prepare("SELECT count(*) FROM order_events").pluck().get()).toBe(3);

    // The next batch continues the numbers and adds to the same tally rows.
    const next = write([job(), job()]);
    expect(next.map((r) => r.ok && r.value.kind === "created" && r.value.partnerSeq)).toEqual([
      4, 5,
    ]);
    expect(
      db.prepare("SELECT orders FROM order_day_totals WHERE currency = 'IDR'").pluck().get(),
    ).toBe(4);
  });

  it("queues a delivery of each created order's event, and none of a failed job's, for the partner's endpoints", async () => {
    const { db, write } = await writerOnFreshStore();
    const endpoint = db.prepare(
      "INSERT INTO webhook_endpoints (id, partner_id, url, events, secret_sealed, created_at, updated_at) VALUES (?, ?, 'https://example.test/hook', ?, 'sealed', 0, 0)",
    );
    endpoint.run("we-all", PARTNER.id, '["*"]');
    endpoint.run("we-created", PARTNER.id, '["order.created"]');
    endpoint.run("we-other", PARTNER.id, '["order.cancelled"]');
    const failing = job();
    failing.idempotency = { key: "K-1", requestHash: null as unknown as string };
    const results = write([job(), failing, job()]);
    expect(results.map((r) => (r.ok ? r.value.kind : "error"))).toEqual([
      "created",
      "error",
      "created",
    ]);

    const events = db.prepare("SELECT id, created_at FROM order_events ORDER BY seq").all() as {
      id: string;
      created_at: number;
    }[];
    expect(events).toHaveLength(2);
    const queued = db
      .prepare(
        "SELECT d.endpoint_id, d.event_id, d.event_type, d.state, d.next_attempt_at FROM webhook_deliveries d JOIN order_events e ON e.id = d.event_id ORDER BY e.seq, d.endpoint_id",
      )
      .all();
    expect(queued).toEqual(
      events.flatMap((e) =>
        ["we-all", "we-created"].map((endpointId) => ({
          endpoint_id: endpointId,
          event_id: e.id,
          event_type: "order.created",
          state: "pending",
          next_attempt_at: e.created_at,
        })),
      ),
    );
  });

  it("answers every job with its error, and creates nothing, when every job fails", async () => {
    const { db, write } = await writerOnFreshStore();
    db.exec("DROP TABLE request_nonces");
    const results = write([job(), job()]);
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(ordersIn(db)).toEqual([]);
  });

  it("sends a created order back from the writer thread as its numbers and rebuilds it whole", async () => {
    const { write } = await writerOnFreshStore();
    const sent = job();
    const [result] = write([sent]);
    if (!result) throw new Error("no result");
    const wire = toWireResult(result);
    expect(wire).toEqual([1, 1]);
    // The calling thread rebuilds the whole order, as the store answers without the thread.
    const whole = {
      ok: true,
      value: {
        kind: "created",
        order: {
          ...sent.order,
          seq: 1,
          partnerSeq: 1,
          version: 1,
          updatedAt: sent.order.createdAt,
        },
      },
    };
    expect(fromWireResult(structuredClone(wire), sent)).toEqual(whole);
    expect(toBatchResult(result, sent)).toEqual(whole);
  });
});
