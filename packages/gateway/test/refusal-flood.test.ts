/**
 * Refusals are not free: each refused request counts in its caller's `refusals` share (per
 * partner once its token verified, else per source address), and a caller over it is answered
 * 429 with Retry-After before any token or signature is checked. Over real sockets on both
 * stores, beside a victim tenant whose partner keeps creating orders.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { scrape } from "../src/observability/metrics.js";
import {
  createPartner,
  distinctTimestamp,
  order,
  signatureOf,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, userToken } from "./support/tenants.js";
import { startVictim, starvedAbove, type Victim } from "./support/victim.js";

/** The victim's order p50 must stay under this; generous for a loaded machine (target 100 ms). */
const VICTIM_P50_BOUND_MS = 400;
/** GATEWAY_SHARE_REFUSALS_PER_PARTY's default. */
const BUDGET = 60;

describe.each(storeKinds)("refusals count against the caller (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let victim: Victim;
  let mallory: TestPartner;
  let malloryToken: string;

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    victim = await startVictim(gw, base);
    mallory = await createPartner(gw, undefined, "Mallory Retail");
    const login = await httpRequest(base, "POST", "/api/v1/auth/login", {
      body: { client_id: mallory.clientId, client_secret: mallory.clientSecret },
    });
    malloryToken = login.body.token as string;
  });
  afterAll(async () => {
    await gw.close();
  });

  /** A create by `partner` with its valid token, signed by `key` (a wrong one: refused). */
  const create = (partner: TestPartner, token: string, signature?: string, from?: string) => {
    const timestamp = distinctTimestamp(String(Math.floor(Date.now() / 1000)));
    return httpRequest(base, "POST", "/api/v1/sales-orders", {
      headers: {
        authorization: `Bearer ${token}`,
        "x-client-id": partner.clientId,
        "x-timestamp": timestamp,
        "x-signature":
          signature ?? signatureOf(partner.keys.privateKey, partner.clientId, timestamp),
      },
      body: order(),
      ...(from ? { from } : {}),
    });
  };
  /** `total` requests, `parallel` at a time. */
  const flood = async (total: number, parallel: number, send: () => Promise<HttpAnswer>) => {
    const answers: HttpAnswer[] = [];
    for (let sent = 0; sent < total; sent += parallel)
      answers.push(...(await Promise.all(Array.from({ length: parallel }, send))));
    return answers;
  };
  const forged = Buffer.alloc(256, 7).toString("base64");

  it("a bad-signature flood gets 429 after its budget, the victim's orders go on", async () => {
    const { report, attack } = await victim.during(() =>
      flood(1200, 8, () => create(mallory, malloryToken, forged)),
    );
    const codes = attack.map((a) => a.body.code);
    expect(codes.slice(0, BUDGET).every((c) => c === "signature_invalid")).toBe(true);
    const limited = attack.slice(BUDGET);
    expect(limited.every((a) => a.status === 429)).toBe(true);
    expect(limited[0]?.body).toMatchObject({
      code: "rate_limited",
      share: "refusals",
      share_level: "party",
    });
    expect(Number(limited[0]?.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.at(-1)?.headers["retry-after"])).toBeGreaterThan(0);

    console.log(`victim orders during a bad-signature flood (${kind}):`, report);
    expect(report.created).toBe(report.sent);
    expect(report.p50Ms).toBeLessThan(starvedAbove(report, VICTIM_P50_BOUND_MS));

    // The flooding partner is turned away as a whole for the window, even when it signs right.
    const signed = await create(mallory, malloryToken);
    expect(signed.status).toBe(429);
    expect(signed.body.share).toBe("refusals");
    const { body } = await scrape();
    expect(body).toMatch(/orderline_share_refusals_total\{share="refusals",level="party"\} [1-9]/);
  }, 180_000);

  it("a bad-token flood is counted by source address: that address gets 429, others do not", async () => {
    const other = await createPartner(gw, undefined, "Honest Retail");
    const otherLogin = await httpRequest(base, "POST", "/api/v1/auth/login", {
      body: { client_id: other.clientId, client_secret: other.clientSecret },
      from: "127.0.0.3",
    });
    const attack = await flood(BUDGET + 20, 4, () =>
      create(other, "not-a-token", undefined, "127.0.0.2"),
    );
    expect(attack.slice(0, BUDGET).every((a) => a.body.code === "token_invalid")).toBe(true);
    expect(attack.slice(BUDGET).every((a) => a.status === 429)).toBe(true);
    // Even with a valid token, that address is turned away for the window…
    const fromFlood = await create(other, otherLogin.body.token as string, undefined, "127.0.0.2");
    expect(fromFlood.status).toBe(429);
    // …while the partner the flood named works from its own address: nobody spent its budget.
    const fromHome = await create(other, otherLogin.body.token as string, undefined, "127.0.0.3");
    expect(fromHome.status).toBe(201);
    expect((await victim.createOrder()).status).toBe(201);
  });

  it("the tenant API counts bad tokens by address; a signed-in user elsewhere reads on", async () => {
    const tenant = await createTenant(gw, "Reader Foods");
    const token = await userToken(gw, tenant.member.email);
    const read = (bearer: string, from: string) =>
      httpRequest(base, "GET", "/v1/orders", {
        headers: { authorization: `Bearer ${bearer}` },
        from,
      });
    const attack = await flood(BUDGET + 10, 5, () => read("garbage", "127.0.0.4"));
    expect(attack.slice(0, BUDGET).every((a) => a.status === 401)).toBe(true);
    const limited = attack.slice(BUDGET);
    expect(limited.every((a) => a.status === 429)).toBe(true);
    expect(limited[0]?.body).toMatchObject({ code: "rate_limited", share: "refusals" });
    expect((await read(token, "127.0.0.5")).status).toBe(200);
  });
});
