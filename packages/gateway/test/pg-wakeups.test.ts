import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../src/lib/random.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { tempDir } from "./helpers.js";
import { freshDatabaseUrl, PARTNER, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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

const newOrder = () => ({
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

describe.skipIf(!storeKinds.includes("postgres"))(
  "webhook wake-ups across instances (postgres)",
  () => {
    it("wakes every instance's worker only for webhook work: queued deliveries or events to fan out", async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const url = await freshDatabaseUrl("postgres", dir);
      const a = await instance(url);
      const b = await instance(url);
      const store: Store = a.store;
      await store.createPartner(PARTNER);
      const wakes = async (expected: [number, number]) => {
        await until(() => a.wakes === expected[0] && b.wakes === expected[1]);
        await settle(300); // and no more after
        expect([a.wakes, b.wakes]).toEqual(expected);
      };

      // No endpoint subscribes: a creation is born dispatched and wakes no worker.
      const created = await store.createOrder(newOrder());
      await wakes([1, 1]);
      const [event] = await store.listOrderEvents({ limit: 10 });
      expect(event?.type).toBe("order.created");
      expect(await store.webhooks.dispatchEvents(100, Date.now())).toBe(0);

      // A status change leaves its event to the workers' fan-out: every instance is woken; the
      // fan-out queues nothing, and before migration 018 that empty INSERT still notified, so
      // every worker's fan-out woke every worker, and idle instances kept each other busy.
      if (created.kind !== "created") throw new Error(created.kind);
      const moved = await store.moveOrder({
        orderId: created.order.id,
        scope: { partnerId: PARTNER.id },
        from: ["received"],
        to: "cancelled",
        actor: { type: "partner", id: PARTNER.id, name: PARTNER.clientId },
        reason: null,
        at: Date.now(),
      });
      expect(moved.kind).toBe("moved");
      await wakes([2, 2]);
      expect(await a.store.webhooks.dispatchEvents(100, Date.now())).toBe(1);
      expect(await b.store.webhooks.dispatchEvents(100, Date.now())).toBe(0);
      await wakes([2, 2]);

      // With a subscribed endpoint, a creation queues its delivery in its own statement: the
      // workers are woken to deliver it, with nothing left to fan out.
      const now = Date.now();
      await store.webhooks.createEndpoint({
        id: "we_1",
        partnerId: PARTNER.id,
        url: "https://receiver.example/hook",
        events: ["order.created"],
        secretSealed: "sealed",
        previousSecretSealed: null,
        previousSecretUntil: null,
        enabled: true,
        disabledReason: null,
        createdAt: now,
        updatedAt: now,
        lastSuccessAt: null,
        failingSince: null,
      });
      const second = await store.createOrder(newOrder());
      await wakes([3, 3]);
      expect(await store.webhooks.dispatchEvents(100, Date.now())).toBe(0);
      const claimed = await b.store.webhooks.claimDeliveries(
        Date.now(),
        Date.now() + 30_000,
        "l",
        10,
      );
      expect(claimed.map((d) => d.endpointId)).toEqual(["we_1"]);
      expect(second.kind).toBe("created");
    });
  },
);
