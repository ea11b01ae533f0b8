import { createHash, sign } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { purgeExpired } from "../src/store/purge.js";
import {
  createPartner,
  FakeClock,
  login,
  order,
  signatureOf,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two gateway instances on one store, each on its own port, sharing a clock. */
async function twoInstances(kind: (typeof storeKinds)[number]) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const clock = new FakeClock();
  const databaseUrl = await freshDatabaseUrl(kind, dir);
  const start = async () => {
    const gw = await startGateway({ dir, clock, config: { databaseUrl, partnerCacheMs: 0 } });
    cleanups.push(() => gw.close());
    return { gw, base: await gw.app.listen({ port: 0, host: "127.0.0.1" }) };
  };
  const a = await start();
  const b = await start();
  return { a, b, clock };
}

/** One signed request, captured as a partner (or an eavesdropper) would send it again. */
function captured(
  partner: TestPartner,
  token: string,
  timestamp: string,
  method: string,
  path: string,
  body: unknown,
  version: 1 | 2 = 1,
) {
  const text = body === undefined ? "" : JSON.stringify(body);
  const digest = createHash("sha256").update(text).digest("hex");
  const signature =
    version === 1
      ? signatureOf(partner.keys.privateKey, partner.clientId, timestamp)
      : sign(
          "sha256",
          Buffer.from(`v2\n${partner.clientId}\n${timestamp}\n${method}\n${path}\n${digest}`),
          partner.keys.privateKey,
        ).toString("base64");
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "x-client-id": partner.clientId,
    "x-timestamp": timestamp,
    "x-signature": signature,
    ...(version === 2 ? { "x-signature-version": "2" } : {}),
  };
  return (base: string, extra: Record<string, string> = {}) =>
    httpRequest(base, method, path, { body, headers: { ...headers, ...extra } });
}

async function orderCount(gw: Gateway, partner: TestPartner): Promise<number> {
  const found = await gw.store.findPartnerByClientId(partner.clientId);
  return (await gw.store.listOrders(found?.id as string, { limit: 100 })).orders.length;
}

describe.each(storeKinds)("exact replays of signed requests (%s store)", (kind) => {
  it("refuses a replayed create (versions 1 and 2) on the same and on a second instance", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    for (const version of [1, 2] as const) {
      const send = captured(
        partner,
        token,
        String(clock.seconds + version),
        "POST",
        "/api/v1/sales-orders",
        order(),
        version,
      );
      const first = await send(a.base);
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      for (const instance of [a, b]) {
        const again = await send(instance.base);
        expect(again.status, `v${version} on ${instance === a ? "A" : "B"}`).toBe(409);
        expect(again.headers["content-type"]).toContain("application/problem+json");
        expect(again.body.code).toBe("request_replayed");
      }
    }
    expect(await orderCount(a.gw, partner)).toBe(2);
  });

  it("refuses a replayed cancel, accepts replayed reads, and two different orders signed in one second", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const t = String(clock.seconds);
    // Version 1 signs only client_id|timestamp: two orders in one second share the signature.
    const one = await captured(
      partner,
      token,
      t,
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-1" }),
    )(a.base);
    const two = await captured(
      partner,
      token,
      t,
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-2" }),
    )(b.base);
    expect([one.status, two.status]).toEqual([201, 201]);
    const id = (one.body.data as { id: string }).id;

    const cancel = captured(
      partner,
      token,
      String(clock.seconds + 1),
      "POST",
      `/api/v1/sales-orders/${id}/cancel`,
      { reason: "customer withdrew" },
    );
    expect((await cancel(a.base)).status).toBe(200);
    const replayed = await cancel(b.base);
    expect(replayed.status).toBe(409);
    expect(replayed.body.code).toBe("request_replayed");

    const read = captured(
      partner,
      token,
      String(clock.seconds + 2),
      "GET",
      `/api/v1/sales-orders/${id}`,
      undefined,
    );
    for (const base of [a.base, b.base, a.base]) expect((await read(base)).status).toBe(200);
  });

  it("lets an Idempotency-Key retry signed afresh replay the first answer", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const key = { "idempotency-key": "retry-after-timeout-1" };
    const first = await captured(
      partner,
      token,
      String(clock.seconds),
      "POST",
      "/api/v1/sales-orders",
      order(),
    )(a.base, key);
    expect(first.status).toBe(201);
    // The SDK's retry: same body and key, a fresh timestamp (here a millisecond later).
    const retry = await captured(
      partner,
      token,
      String(clock.ms + 1),
      "POST",
      "/api/v1/sales-orders",
      order(),
    )(b.base, key);
    expect(retry.status).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect((retry.body.data as { id: string }).id).toBe((first.body.data as { id: string }).id);
    expect(await orderCount(a.gw, partner)).toBe(1);
  });

  it("answers an exact retry carrying its Idempotency-Key with the first 201, on either instance, also after the order moved on", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const key = { "idempotency-key": "client-timeout-retry-1" };
    // What an HTTP client's automatic retry sends after a timeout: the same bytes, headers and all.
    const send = captured(
      partner,
      token,
      String(clock.ms),
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-RETRY-1" }),
    );
    const first = await send(a.base, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    for (const instance of [a, b]) {
      const retry = await send(instance.base, key);
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.headers["idempotent-replayed"]).toBe("true");
      expect(retry.headers.location).toBe(first.headers.location);
      expect(retry.body).toEqual(first.body);
    }
    // Two copies at once (a load balancer's retry racing the original) make one order too.
    const twice = captured(
      partner,
      token,
      String(clock.ms + 1),
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-RETRY-2" }),
    );
    const both = await Promise.all([a, b].map((i) => twice(i.base, { "idempotency-key": "k-2" })));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[0]?.body).toEqual(both[1]?.body);

    // The first answer, not the order's state now: GET shows that.
    const id = (first.body.data as { id: string }).id;
    const cancel = captured(
      partner,
      token,
      String(clock.ms + 2),
      "POST",
      `/api/v1/sales-orders/${id}/cancel`,
      { reason: "customer withdrew" },
    );
    expect((await cancel(b.base)).status).toBe(200);
    const late = await send(b.base, key);
    expect(late.status).toBe(201);
    expect(late.body).toEqual(first.body);
    expect(await orderCount(a.gw, partner)).toBe(2);
  });

  it("refuses the exact request without a key, naming its order's existence; a refused create's copy is decided afresh", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const send = captured(
      partner,
      token,
      String(clock.ms),
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-EXACT" }),
    );
    expect((await send(a.base)).status).toBe(201);
    const again = await send(b.base);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("request_replayed");
    expect(again.body.detail).toContain("created its order before");

    // A create refused as a duplicate keeps no nonce: its copy gets the same refusal again.
    const duplicate = captured(
      partner,
      token,
      String(clock.ms + 1),
      "POST",
      "/api/v1/sales-orders",
      order({ purchase_order_no: "PO-EXACT" }),
    );
    for (const instance of [a, b]) {
      const refused = await duplicate(instance.base);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("duplicate_purchase_order");
    }
    expect(await orderCount(a.gw, partner)).toBe(1);
  });

  it("refuses a reused Idempotency-Key with a different body, and a copy of the first request under a new key", async () => {
    const { a, b, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const key = { "idempotency-key": "reused-key" };
    const send = captured(
      partner,
      token,
      String(clock.ms),
      "POST",
      "/api/v1/sales-orders",
      order(),
    );
    expect((await send(a.base, key)).status).toBe(201);
    const changed = await captured(
      partner,
      token,
      String(clock.ms + 1),
      "POST",
      "/api/v1/sales-orders",
      order({ address: "2 Other Street" }),
    )(b.base, key);
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe("idempotency_key_mismatch");
    // The key is not signed: a copy of the signed request under another key is still a replay.
    const rekeyed = await send(b.base, { "idempotency-key": "another-key" });
    expect(rekeyed.status).toBe(409);
    expect(rekeyed.body.code).toBe("request_replayed");
    expect(await orderCount(a.gw, partner)).toBe(1);
  });

  it("forgets a nonce once its timestamp window is over, and the replay is refused as too old", async () => {
    const { a, clock } = await twoInstances(kind);
    const partner = await createPartner(a.gw);
    const token = await login(a.gw, partner);
    const send = captured(
      partner,
      token,
      String(clock.seconds),
      "POST",
      "/api/v1/sales-orders",
      order(),
    );
    expect((await send(a.base)).status).toBe(201);
    clock.advanceSeconds(302);
    const report = await purgeExpired(a.gw.store, a.gw.config.retention, clock.ms);
    expect(report.request_nonces).toBe(1);
    const late = await send(a.base);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe("timestamp_too_old");
  });
});
