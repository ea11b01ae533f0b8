import { describe, expect, it } from "vitest";
import {
  type CreateJob,
  fromWireJob,
  fromWireResult,
  toWireJob,
  toWireResult,
} from "../src/store/sqlite/order-writer.js";

const order = {
  id: "0193a1b2-c3d4-7e5f-8a9b-0123456789ab",
  partnerId: "partner-1",
  purchaseOrderNo: "PO-1",
  currency: "EUR",
  customerCode: "CUST-1",
  siteCode: "SITE-1",
  salesName: "Ana ✓",
  address: "1 Street\nTown",
  products: [
    { product_code: "SKU-1", quantity: 2, uom: "EA", unit_price: 9.5 },
    { product_code: "SKU-2", quantity: 1, notes: "gift 🎁" },
  ],
  status: "received",
  createdAt: 1_764_000_000_000,
};

describe("the writer thread's wire format", () => {
  it("carries a job with its key and nonce to the writer unchanged", () => {
    const job: CreateJob = {
      order,
      idempotency: { key: "key-1", requestHash: "abc" },
      nonce: { key: "0193a1b2c3d4.xyz", expiresAt: 1_764_000_301_000 },
    };
    expect(fromWireJob(structuredClone(toWireJob(job)))).toEqual(job);
  });

  it("carries a job without key, nonce or purchase order number or currency", () => {
    const job: CreateJob = {
      order: { ...order, purchaseOrderNo: null, currency: null },
      idempotency: undefined,
      nonce: undefined,
    };
    expect(fromWireJob(structuredClone(toWireJob(job)))).toEqual(job);
  });

  it("passes outcomes other than a creation, and errors with their code, back whole", () => {
    const job: CreateJob = { order, idempotency: undefined, nonce: undefined };
    const refused = toWireResult({ ok: true, value: { kind: "request_replayed" } });
    expect(fromWireResult(structuredClone(refused), job)).toEqual({
      ok: true,
      value: { kind: "request_replayed" },
    });
    const failed = fromWireResult(
      structuredClone(
        toWireResult({
          ok: false,
          error: Object.assign(new Error("disk I/O"), { code: "SQLITE_IOERR" }),
        }),
      ),
      job,
    );
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.error.message).toBe("disk I/O");
      expect((failed.error as { code?: string }).code).toBe("SQLITE_IOERR");
    }
  });
});
