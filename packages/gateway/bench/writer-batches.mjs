// node bench/writer-batches.mjs [--sizes 1,12,28,56 --orders 12000]
//
// The SQLite order writer alone (createOrderWriter from the built gateway, in this process, on a
// fresh file with the gateway's connection settings and the writer thread's pragmas): CPU per
// order (process.cpuUsage, user and system) for batches of each size, as group commit hands
// them over. Shows how much of a commit's cost is per batch rather than per order.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { newId } from "../dist/lib/random.js";
import { openConnection } from "../dist/store/sqlite/connection.js";
import { createOrderWriter } from "../dist/store/sqlite/order-writer.js";
import { benchStore } from "./common.mjs";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,12,28,56" },
    orders: { type: "string", default: "12000" },
  },
});
const cli = new URL("../dist/cli/main.js", import.meta.url).pathname;

/** A writer on a fresh migrated file with one partner, and a job maker like the service's. */
function freshWriter() {
  const dir = mkdtempSync(join(tmpdir(), "orderline-writer-"));
  benchStore(cli, dir);
  const db = openConnection(join(dir, "gateway.db"));
  db.pragma("temp_store = MEMORY");
  const partnerId = db.prepare("SELECT id FROM partners").pluck().get();
  let n = 0;
  const job = () => {
    const now = Date.now();
    n++;
    return {
      order: {
        id: newId(now),
        partnerId,
        // As bench/driver.mjs numbers them: 64 connections, one running sequence.
        purchaseOrderNo: `w-${n % 64}-${n}`,
        currency: null,
        customerCode: "CUST-001",
        siteCode: "SITE-01",
        salesName: "Bench Sales",
        address: "1 Bench Street",
        products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
        status: "received",
        createdAt: now,
      },
      idempotency: undefined,
      nonce: {
        key: `${now.toString(16).padStart(12, "0")}.${newId(now)}-${n}`,
        expiresAt: now + 301_000,
      },
    };
  };
  const close = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { write: createOrderWriter(db), job, close };
}

for (const size of values.sizes.split(",").map(Number)) {
  const { write, job, close } = freshWriter();
  const batches = Math.ceil(Number(values.orders) / size);
  for (let i = 0; i < Math.ceil(2000 / size); i++) write(Array.from({ length: size }, job));
  const work = Array.from({ length: batches }, () => Array.from({ length: size }, job));
  const before = process.cpuUsage();
  for (const batch of work) {
    const [first] = write(batch);
    if (!first?.ok || first.value.kind !== "created") throw new Error("an order was not created");
  }
  const used = process.cpuUsage(before);
  const orders = batches * size;
  console.log(
    `batches of ${String(size).padStart(3)}: ${((used.user + used.system) / orders).toFixed(1)} µs CPU per order (user ${(used.user / orders).toFixed(1)}, system ${(used.system / orders).toFixed(1)})`,
  );
  close();
}
