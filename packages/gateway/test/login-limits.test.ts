import { afterEach, describe, expect, it } from "vitest";
import type { GatewayConfig } from "../src/config.js";
import type { Gateway } from "../src/gateway.js";
import { createPartner, FakeClock, startGateway, type TestPartner } from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG } from "./support/tenants.js";

// Several source addresses on one machine: the client binds to 127.0.0.x before connecting.
const ATTACKER = "127.0.0.2";
const PARTNER_HOST = "127.0.0.3";

let gw: Gateway & { dir: string };
let base: string;
let clock: FakeClock;

async function start(kind: (typeof storeKinds)[number], config: Partial<GatewayConfig> = {}) {
  clock = new FakeClock();
  gw = await startGateway({
    store: kind,
    clock,
    config: { users: TEST_USERS_CONFIG, ...config },
  });
  base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
}
afterEach(async () => {
  await gw?.close();
});

const partnerLogin = (partner: TestPartner, from: string, secret = partner.clientSecret) =>
  httpRequest(base, "POST", "/api/v1/auth/login", {
    from,
    body: { client_id: partner.clientId, client_secret: secret },
  });

const userLogin = (email: string, from: string, password = PASSWORD, headers = {}) =>
  httpRequest(base, "POST", "/v1/auth/login", { from, headers, body: { email, password } });

function expectThrottled(answer: HttpAnswer, what: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.headers["content-type"]).toContain("application/problem+json");
  expect(answer.body.code).toBe("login_throttled");
  expect(answer.body.detail).toContain(what);
  expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
}

describe.each(storeKinds)("login limits by source address (%s store)", (kind) => {
  it("a partner is not locked out by wrong secrets for its client_id from another address", async () => {
    await start(kind);
    const partner = await createPartner(gw);
    const statuses: number[] = [];
    // More than a minute's worth of login attempts (60) for the partner's public client_id.
    for (let i = 0; i < 70; i++)
      statuses.push((await partnerLogin(partner, ATTACKER, `ols_guess_${i}`)).status);
    // Five free failures, then the attacker's address is locked for this client_id (and, past
    // 60 attempts, rate limited as an address).
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const real = await partnerLogin(partner, PARTNER_HOST);
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect(typeof real.body.token).toBe("string");
  });

  it("locks the attacking address for that client_id, saying so", async () => {
    await start(kind);
    const partner = await createPartner(gw);
    for (let i = 0; i < 5; i++)
      expect((await partnerLogin(partner, ATTACKER, `ols_guess_${i}`)).status).toBe(401);
    expectThrottled(await partnerLogin(partner, ATTACKER), "for this account from your address");
  });

  it("a user is not locked out by wrong passwords for their email from another address", async () => {
    await start(kind);
    const tenant = await createTenant(gw, "Lockout");
    for (let i = 0; i < 5; i++)
      expect((await userLogin(tenant.member.email, ATTACKER, `wrong password ${i}`)).status).toBe(
        401,
      );
    expectThrottled(
      await userLogin(tenant.member.email, ATTACKER, "wrong password 6"),
      "for this account from your address",
    );
    // The locked address is refused even with the right password, the user's own is not.
    expectThrottled(await userLogin(tenant.member.email, ATTACKER), "from your address");
    expect((await userLogin(tenant.member.email, PARTNER_HOST)).status).toBe(200);
  });

  it("one address guessing across many accounts is throttled as an address, others are not", async () => {
    await start(kind, {
      loginThrottle: { perAccountAndAddress: 5, perAddress: 4, perAccount: 1000 },
    });
    const partner = await createPartner(gw);
    const tenant = await createTenant(gw, "Spray");
    for (let i = 0; i < 4; i++) {
      const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
        from: ATTACKER,
        body: { client_id: `olc_made_up_${i}`, client_secret: "ols_guess" },
      });
      expect(answer.status).toBe(401);
    }
    // The fifth account from that address: locked as an address, even for a real partner.
    expectThrottled(await partnerLogin(partner, ATTACKER), "from your address");
    // Partner and user sign-ins count separately.
    expect((await userLogin(tenant.admin.email, ATTACKER)).status).toBe(200);
    expect((await partnerLogin(partner, PARTNER_HOST)).status).toBe(200);
  });

  it("keeps an account-wide ceiling for guesses spread over many addresses", async () => {
    await start(kind, {
      loginThrottle: { perAccountAndAddress: 5, perAddress: 50, perAccount: 6 },
    });
    const partner = await createPartner(gw);
    for (let host = 10; host < 16; host++)
      expect((await partnerLogin(partner, `127.0.0.${host}`, "ols_wrong")).status).toBe(401);
    expectThrottled(await partnerLogin(partner, PARTNER_HOST), "for this account;");
    // A lock runs out: 2 s after the last failure the partner gets in.
    clock.advanceSeconds(2);
    expect((await partnerLogin(partner, PARTNER_HOST)).status).toBe(200);
  });

  it("limits sign-in attempts per address, right or wrong, on both APIs", async () => {
    await start(kind, {
      rateLimit: { windowSeconds: 60, ordersMax: 1000, loginMax: 3 },
    });
    const partner = await createPartner(gw);
    const tenant = await createTenant(gw, "Flood");
    expect((await partnerLogin(partner, ATTACKER)).status).toBe(200);
    expect((await userLogin(tenant.admin.email, ATTACKER)).status).toBe(200);
    expect((await userLogin("nobody@flood.example", ATTACKER)).status).toBe(401);
    for (const answer of [
      await partnerLogin(partner, ATTACKER),
      await userLogin(tenant.admin.email, ATTACKER),
    ]) {
      expect(answer.status).toBe(429);
      expect(answer.body.code).toBe("rate_limited");
      expect(answer.body.detail).toContain("from this address");
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect((await partnerLogin(partner, PARTNER_HOST)).status).toBe(200);
    expect((await userLogin(tenant.admin.email, PARTNER_HOST)).status).toBe(200);
  });

  it("answers 503 login_busy with Retry-After when password hashing is saturated, and loses nothing", async () => {
    await start(kind, {
      hashing: { concurrency: 1, reserved: 0, queue: 1, perSource: 2, perAccount: 2 },
    });
    const tenant = await createTenant(gw, "Busy");
    // Hold the one hashing slot and the one queue place, as a flood of sign-ins would.
    const saturate = () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const held = [1, 2].map((i) =>
        gw.hashing.run({ source: `flood-${i}`, account: "x", priority: 0 }, () => gate),
      );
      expect([gw.hashing.active, gw.hashing.queued]).toEqual([1, 1]);
      return () => {
        release();
        return Promise.all(held);
      };
    };
    const release = saturate();

    const busy = await userLogin(tenant.admin.email, PARTNER_HOST);
    expect(busy.status).toBe(503);
    expect(busy.headers["content-type"]).toContain("application/problem+json");
    expect(busy.body.code).toBe("login_busy");
    expect(Number(busy.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(busy.body.retry_after).toBe(Number(busy.headers["retry-after"]));

    await release();
    // Refused for load, not counted as a failure: the right password works at once.
    expect((await userLogin(tenant.admin.email, PARTNER_HOST)).status).toBe(200);
    // Partner logins hash no password and are not refused while hashing is saturated.
    const partner = await createPartner(gw);
    const releaseAgain = saturate();
    expect((await partnerLogin(partner, PARTNER_HOST)).status).toBe(200);
    await releaseAgain();
  });
});

describe("the source address behind a proxy (GATEWAY_TRUST_PROXY)", () => {
  it("ignores X-Forwarded-For unless the peer is a trusted proxy", async () => {
    await start("sqlite");
    const partner = await createPartner(gw);
    // Without a trusted proxy, a client cannot escape its lock by inventing addresses.
    for (let i = 0; i < 5; i++) {
      const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
        from: ATTACKER,
        headers: { "x-forwarded-for": `198.51.100.${i}` },
        body: { client_id: partner.clientId, client_secret: "ols_wrong" },
      });
      expect(answer.status).toBe(401);
    }
    const spoofed = await httpRequest(base, "POST", "/api/v1/auth/login", {
      from: ATTACKER,
      headers: { "x-forwarded-for": "198.51.100.99" },
      body: { client_id: partner.clientId, client_secret: partner.clientSecret },
    });
    expectThrottled(spoofed, "from your address");
  });

  it("counts by the forwarded client address when the proxy is trusted", async () => {
    await start("sqlite", { trustProxy: ["127.0.0.1"] });
    const partner = await createPartner(gw);
    const via = (client: string, secret: string) =>
      httpRequest(base, "POST", "/api/v1/auth/login", {
        from: "127.0.0.1",
        headers: { "x-forwarded-for": client },
        body: { client_id: partner.clientId, client_secret: secret },
      });
    for (let i = 0; i < 5; i++) expect((await via("203.0.113.5", "ols_wrong")).status).toBe(401);
    expectThrottled(await via("203.0.113.5", partner.clientSecret), "from your address");
    expect((await via("203.0.113.6", partner.clientSecret)).status).toBe(200);
    // An IPv6 client counts by its /64: another address in the same /64 shares the lock.
    for (let i = 0; i < 5; i++)
      expect((await via(`2001:db8:1:2::${i + 1}`, "ols_wrong")).status).toBe(401);
    expectThrottled(await via("2001:db8:1:2:ffff::9", partner.clientSecret), "from your address");
    expect((await via("2001:db8:1:3::1", partner.clientSecret)).status).toBe(200);
  });
});
