/**
 * The partner directory reads a partner once however many requests miss its cache together
 * (when the one-second entry expired under load, every request in flight read the
 * partner, its keys and its sessions again), and a change made while a read is under way is
 * not hidden by that read's older view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartnerDirectory } from "../src/domain/partners/directory.js";
import type { Gateway } from "../src/gateway.js";
import { createPartner, startGateway, type TestPartner } from "./helpers.js";
import { storeKinds } from "./support/stores.js";

describe.each(storeKinds)("partner directory (%s store)", (kind) => {
  let gw: Gateway;
  let partner: TestPartner;
  let partnerId: string;
  let reads = 0;
  /** The gateway's store, counting its partner reads. */
  let counted: Gateway["store"];

  beforeAll(async () => {
    gw = await startGateway({ store: kind });
    partner = await createPartner(gw);
    partnerId = (await gw.store.findPartnerByClientId(partner.clientId))?.id ?? "";
    counted = Object.create(gw.store, {
      findPartnerByClientId: {
        value: (clientId: string) => {
          reads += 1;
          return gw.store.findPartnerByClientId(clientId);
        },
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("answers 50 concurrent misses for one partner with one read of the store", async () => {
    const directory = new PartnerDirectory(counted, () => Date.now(), 1_000);
    reads = 0;
    const views = await Promise.all(
      Array.from({ length: 50 }, () => directory.get(partner.clientId)),
    );
    expect(reads).toBe(1);
    expect(views.every((view) => view?.clientId === partner.clientId)).toBe(true);
    expect(views[0]?.activeKeys).toHaveLength(1);
  });

  it("reads again after an invalidation that came while a read was under way", async () => {
    const directory = new PartnerDirectory(counted, () => Date.now(), 60_000);
    const before = directory.get(partner.clientId);
    directory.invalidate(partner.clientId);
    await gw.store.setPartnerStatus(partnerId, "disabled", Date.now());
    try {
      expect((await before)?.clientId).toBe(partner.clientId);
      expect((await directory.get(partner.clientId))?.status).toBe("disabled");
    } finally {
      await gw.store.setPartnerStatus(partnerId, "active", Date.now());
    }
  });
});
