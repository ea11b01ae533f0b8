import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { tempDir } from "./helpers.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PARTNER = {
  id: "partner-1",
  clientId: "olc_one",
  name: "One",
  secretHash: "x",
  secretVersion: 1,
  status: "active" as const,
  createdAt: 0,
  updatedAt: 0,
  previousSecretHash: null,
  previousSecretUntil: null,
};

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ready` holds, for at most 5 s. */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready() && waited < 5000; waited += 20) await settle(20);
}

/** An instance's store and how often its webhook worker would have been woken. */
async function instance(url: string) {
  const store = await openStore(url);
  const counted = { store, wakes: 0 };
  const stop = store.webhooks.onWork?.(() => {
    counted.wakes++;
  });
  cleanups.push(async () => {
    await stop?.();
    await store.close();
  });
  // The first wake comes once the LISTEN is in place.
  await until(() => counted.wakes === 1);
  return counted;
}

describe.skipIf(!storeKinds.includes("postgres"))(
  "webhook wake-ups across instances (postgres)",
  () => {
    it("wakes every instance when an order is written, and a fan-out that queues nothing wakes no one", async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const url = await freshDatabaseUrl("postgres", dir);
      const a = await instance(url);
      const b = await instance(url);
      await (a.store as Store).createPartner(PARTNER);
      await a.store.createOrder({
        id: newId(),
        partnerId: PARTNER.id,
        purchaseOrderNo: null,
        customerCode: "C",
        siteCode: "S",
        salesName: "N",
        address: "A",
        products: [{ product_code: "P", quantity: 1 }],
        status: "received",
        createdAt: Date.now(),
      });
      await until(() => a.wakes === 2 && b.wakes === 2);
      expect([a.wakes, b.wakes]).toEqual([2, 2]);

      // No endpoint subscribes: the fan-out marks the event and queues no delivery. Before
      // migration 018 that empty INSERT still notified, every worker's fan-out woke every worker,
      // and idle instances kept each other busy.
      expect(await a.store.webhooks.dispatchEvents(100, Date.now())).toBe(1);
      expect(await b.store.webhooks.dispatchEvents(100, Date.now())).toBe(0);
      await settle(500);
      expect([a.wakes, b.wakes]).toEqual([2, 2]);
    });
  },
);
