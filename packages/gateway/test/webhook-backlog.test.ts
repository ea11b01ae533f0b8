import { afterEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { createPartner, login, order, signedHeaders, startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.close();
});

/** The store reading behind orderline_webhook_backlog and orderline_webhook_outbox_lag_seconds. */
describe.each(storeKinds)("webhook backlog reading (%s store)", (kind) => {
  it("counts pending deliveries of enabled endpoints and dates the oldest due work", async () => {
    const gw = await startGateway({ store: kind });
    gateways.push(gw);
    const partner = await createPartner(gw);
    const endpoint = await gw.webhooks.create(
      { clientId: partner.clientId },
      { url: "https://receiver.example.com/hooks", events: ["*"] },
    );
    expect(await gw.store.webhooks.backlog(Date.now())).toEqual({ pending: 0, oldestDueAt: null });

    const token = await login(gw, partner);
    const before = Date.now();
    for (const po of ["PO-B-1", "PO-B-2"]) {
      const created = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
        payload: order({ purchase_order_no: po }),
      });
      expect(created.statusCode).toBe(201);
    }
    // Waiting since their creation: not fanned out yet (PostgreSQL fans out in the worker),
    // or queued with the order (SQLite queues in the order's transaction).
    const queued = await gw.store.webhooks.backlog(Date.now());
    expect(queued.oldestDueAt).toBeGreaterThanOrEqual(before - 5);
    expect(queued.oldestDueAt).toBeLessThanOrEqual(Date.now());

    const at = Date.now();
    await gw.store.webhooks.dispatchEvents(100, at);
    const due = await gw.store.webhooks.backlog(at);
    expect(due.pending).toBe(2);
    expect(due.oldestDueAt).toBeGreaterThanOrEqual(before - 5);
    expect(due.oldestDueAt).toBeLessThanOrEqual(at);
    // A delivery due later (a retry) is backlog but not lag.
    expect(await gw.store.webhooks.backlog(before - 1000)).toEqual({
      pending: 2,
      oldestDueAt: null,
    });

    await gw.webhooks.update({ clientId: partner.clientId }, endpoint.id, { enabled: false });
    expect(await gw.store.webhooks.backlog(at)).toEqual({ pending: 0, oldestDueAt: null });
  }, 60_000);
});
