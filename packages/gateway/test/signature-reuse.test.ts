import { afterEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  login,
  order,
  rsaKeys,
  signatureOf,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A version 1 signature covers only client_id|timestamp, so a partner sends the same one with
 * every order of that second, and the gateway remembers that it verified. These requests go over
 * a real socket, with the partner cache on as in production.
 */
describe.each(storeKinds)("a signature sent again (%s store)", (kind) => {
  async function started() {
    const clock = new FakeClock();
    const gw: Gateway = await startGateway({ store: kind, clock });
    cleanups.push(() => gw.close());
    const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const partner = await createPartner(gw);
    const token = await login(gw, partner);
    return { gw, base, clock, partner, token };
  }

  const createWith = (
    base: string,
    partner: TestPartner,
    token: string,
    timestamp: string,
    signature: string,
    po: string,
  ) =>
    httpRequest(base, "POST", "/api/v1/sales-orders", {
      body: order({ purchase_order_no: po }),
      headers: {
        authorization: `Bearer ${token}`,
        "x-client-id": partner.clientId,
        "x-timestamp": timestamp,
        "x-signature": signature,
      },
    });

  it("is refused at once when its key is revoked, while the partner's other key still signs", async () => {
    const { gw, base, clock, partner, token } = await started();
    const second = rsaKeys();
    await gw.partners.addKey(partner.clientId, second.publicPem);
    const t = String(clock.seconds);
    const signature = signatureOf(partner.keys.privateKey, partner.clientId, t);

    for (const po of ["PO-1", "PO-2"]) {
      const created = await createWith(base, partner, token, t, signature, po);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    await gw.partners.revokeKey(partner.clientId, partner.keyId);

    const refused = await createWith(base, partner, token, t, signature, "PO-3");
    expect(refused.status).toBe(401);
    expect(refused.headers["content-type"]).toContain("application/problem+json");
    expect(refused.body.code).toBe("signature_invalid");
    const bySecond = signatureOf(second.privateKey, partner.clientId, t);
    expect((await createWith(base, partner, token, t, bySecond, "PO-4")).status).toBe(201);
  });

  it("still verifies only the text it signed: with another timestamp it is refused", async () => {
    const { base, clock, partner, token } = await started();
    const t = String(clock.seconds);
    const signature = signatureOf(partner.keys.privateKey, partner.clientId, t);
    expect((await createWith(base, partner, token, t, signature, "PO-1")).status).toBe(201);

    clock.advanceSeconds(1);
    const moved = await createWith(base, partner, token, String(clock.seconds), signature, "PO-2");
    expect(moved.status).toBe(401);
    expect(moved.body.code).toBe("signature_invalid");
    expect(moved.body.string_to_sign).toBe(`${partner.clientId}|${clock.seconds}`);
  });

  it("is still refused as an exact replay of the same order", async () => {
    const { base, clock, partner, token } = await started();
    const t = String(clock.seconds);
    const signature = signatureOf(partner.keys.privateKey, partner.clientId, t);
    expect((await createWith(base, partner, token, t, signature, "PO-1")).status).toBe(201);
    const again = await createWith(base, partner, token, t, signature, "PO-1");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("request_replayed");
  });
});
