import { afterEach, describe, expect, it } from "vitest";
import type { GatewayConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  distinctTimestamp,
  FakeClock,
  sharedRsaKeys,
  signatureOf,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { floodFrom } from "./support/flood.js";
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

/** A login signed with the partner's key: the seed's headers over client_id|X-TIMESTAMP. */
const signedLogin = (partner: TestPartner, from: string, secret = partner.clientSecret) => {
  const timestamp = distinctTimestamp(String(clock.seconds));
  return httpRequest(base, "POST", "/api/v1/auth/login", {
    from,
    headers: {
      "x-client-id": partner.clientId,
      "x-timestamp": timestamp,
      "x-signature": signatureOf(partner.keys.privateKey, partner.clientId, timestamp),
    },
    body: { client_id: partner.clientId, client_secret: secret },
  });
};

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

  it("slows only addresses with failures at the account ceiling, never a clean one or one that signed in since", async () => {
    await start(kind, {
      loginThrottle: { perAccountAndAddress: 5, perAddress: 50, perAccount: 6 },
    });
    const partner = await createPartner(gw);
    const tenant = await createTenant(gw, "Ceiling");
    // One address failed once, then signed in: its failure is older than its success.
    const RETURNING = "127.0.0.30";
    expect((await partnerLogin(partner, RETURNING, "ols_typo")).status).toBe(401);
    expect((await partnerLogin(partner, RETURNING)).status).toBe(200);
    expect((await userLogin(tenant.member.email, RETURNING, "a typo password")).status).toBe(401);
    expect((await userLogin(tenant.member.email, RETURNING)).status).toBe(200);
    for (let host = 10; host < 16; host++) {
      expect((await partnerLogin(partner, `127.0.0.${host}`, "ols_wrong")).status).toBe(401);
      expect(
        (await userLogin(tenant.member.email, `127.0.0.${host}`, "wrong password")).status,
      ).toBe(401);
    }
    // The ceiling is reached: it slows the addresses that failed, even with the right secret…
    expectThrottled(
      await partnerLogin(partner, "127.0.0.10"),
      "for this account from addresses with failed sign-ins",
    );
    expectThrottled(
      await userLogin(tenant.member.email, "127.0.0.11"),
      "for this account from addresses with failed sign-ins",
    );
    // …and never an address without failures, nor one that signed in since its last failure.
    for (const from of [PARTNER_HOST, RETURNING]) {
      expect((await partnerLogin(partner, from)).status, from).toBe(200);
      expect((await userLogin(tenant.member.email, from)).status, from).toBe(200);
    }
    // A lock runs out: 4 s after the seventh failure the failing address gets in.
    clock.advanceSeconds(4);
    expect((await partnerLogin(partner, "127.0.0.10")).status).toBe(200);
  });

  it("keeps the counts in the store: an address locked on one instance is locked on another", async () => {
    await start(kind);
    const partner = await createPartner(gw);
    const second = await startGateway({
      dir: gw.dir,
      clock,
      config: { databaseUrl: gw.config.databaseUrl, users: TEST_USERS_CONFIG },
    });
    const secondBase = await second.app.listen({ port: 0, host: "127.0.0.1" });
    try {
      for (let i = 0; i < 5; i++)
        expect((await partnerLogin(partner, ATTACKER, `ols_guess_${i}`)).status).toBe(401);
      const there = await httpRequest(secondBase, "POST", "/api/v1/auth/login", {
        from: ATTACKER,
        body: { client_id: partner.clientId, client_secret: partner.clientSecret },
      });
      expectThrottled(there, "for this account from your address");
    } finally {
      await second.close();
    }
  });

  it("never throttles a login signed with the partner's key for unsigned failures; signed failures count apart", async () => {
    await start(kind, {
      loginThrottle: { perAccountAndAddress: 5, perAddress: 50, perAccount: 6 },
    });
    const partner = await createPartner(gw);
    // Unsigned guessing from the partner's own address and from others: every count is locked.
    for (let i = 0; i < 8; i++)
      expect([401, 429]).toContain(
        (await partnerLogin(partner, PARTNER_HOST, `ols_guess_${i}`)).status,
      );
    for (let host = 10; host < 16; host++)
      await partnerLogin(partner, `127.0.0.${host}`, "ols_wrong");
    expectThrottled(await partnerLogin(partner, PARTNER_HOST), "Too many failed sign-ins");
    // Signed, the right secret gets in at once, from that address and from a guessing one.
    expect((await signedLogin(partner, PARTNER_HOST)).status).toBe(200);
    expect((await signedLogin(partner, "127.0.0.10")).status).toBe(200);
    // Signed failures (the key, but a wrong secret) have a count of their own.
    for (let i = 0; i < 5; i++)
      expect((await signedLogin(partner, PARTNER_HOST, `ols_signed_guess_${i}`)).status).toBe(401);
    expectThrottled(
      await signedLogin(partner, "127.0.0.40"),
      "for this account with its signing key",
    );
    // …which never touches unsigned logins from a clean address.
    expect((await partnerLogin(partner, "127.0.0.41")).status).toBe(200);
  });

  it("refuses a signed login whose signature fails before looking at the secret, counting no failure", async () => {
    await start(kind);
    const partner = await createPartner(gw);
    const timestamp = String(clock.seconds);
    const bad = [
      {
        "x-signature": signatureOf(
          sharedRsaKeys().privateKey,
          partner.clientId,
          `${clock.seconds - 1}`,
        ),
      },
      { "x-timestamp": String(clock.seconds - 3600) },
      { "x-client-id": "olc_000000000000000000000000" },
      { "x-signature": undefined },
    ];
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const variant = bad[i % bad.length] as Record<string, string | undefined>;
      const headers = Object.fromEntries(
        Object.entries({
          "x-client-id": partner.clientId,
          "x-timestamp": timestamp,
          "x-signature": signatureOf(partner.keys.privateKey, partner.clientId, timestamp),
          ...variant,
        }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>;
      const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
        from: ATTACKER,
        headers,
        body: { client_id: partner.clientId, client_secret: partner.clientSecret },
      });
      expect(answer.status).toBe(401);
      codes.push(answer.body.code as string);
    }
    expect(new Set(codes)).toEqual(
      new Set(["signature_invalid", "timestamp_too_old", "client_id_mismatch", "header_missing"]),
    );
    // Six refusals and no failure counted: the address still gets its five free failures.
    for (let i = 0; i < 5; i++)
      expect((await partnerLogin(partner, ATTACKER, `ols_guess_${i}`)).status).toBe(401);
    expect((await partnerLogin(partner, ATTACKER)).status).toBe(429);
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

/**
 * What only a real starvation breaches, whatever else runs on the machine (a sign-in made to
 * wait for the flood's hashes runs into the handler timeout; a lone check took up to 5.7 s here
 * with both cores busy): the latency figures under a flood are measured by
 * bench/login-lockout.mjs and bench/login-contention.mjs.
 */
const STARVED_MS = 8000;

/** A flood from `addresses` addresses (127.0.3.x) at this test's gateway (support/flood.ts). */
const floodOf = (
  addresses: number,
  seconds: number,
  attempts: { path: string; body: Record<string, string> }[],
) => floodFrom({ urls: [base], seconds, addresses, prefix: "127.0.3", attempts });

/** The owner's right sign-ins from its own address every `everyMs` until `until`: [status, ms]. */
async function ownerLogins(until: () => boolean, login: () => Promise<HttpAnswer>, everyMs = 250) {
  const got: [number, number][] = [];
  // At least three, however slowly a busy machine answers: how many fit in the flood's seconds
  // is the machine's speed, not the gateway's fairness.
  while (!until() || got.length < 3) {
    const started = performance.now();
    got.push([(await login()).status, performance.now() - started]);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return got;
}

// A smaller flood than the bench's 200 addresses (bench/login-lockout.mjs), bounded in time:
// at full strength from its first second (each address locked after 5 failures, the hashing
// queue full), so 2-3 s of it, 8-12 of the owner's sign-ins, test what 4-5 s did, for less CPU.
describe.each(storeKinds)("a flood from many addresses (%s store)", (kind) => {
  const OWNER = "127.0.1.1";

  it("refuses no correct partner login from a clean address, none starved", async () => {
    await start(kind);
    const partner = await createPartner(gw);
    const floodEnds = performance.now() + 2000;
    const over = () => performance.now() > floodEnds;
    const [statuses, owner] = await Promise.all([
      floodOf(30, 2, [
        {
          path: "/api/v1/auth/login",
          body: { client_id: partner.clientId, client_secret: "ols_guess_{n}_{i}" },
        },
      ]),
      ownerLogins(over, () => partnerLogin(partner, OWNER)),
    ]);
    expect(statuses[401]).toBeGreaterThan(30);
    expect(owner.length).toBeGreaterThan(2);
    expect(owner.map(([status]) => status)).toEqual(owner.map(() => 200));
    for (const [, ms] of owner) expect(ms).toBeLessThan(STARVED_MS);
  });

  it("refuses no correct user sign-in from the owner's address, none starved", async () => {
    await start(kind, {
      users: { ...TEST_USERS_CONFIG, scryptCost: 2 ** 14 },
      hashing: { concurrency: 1, reserved: 1, queue: 4, perSource: 2, perAccount: 2 },
    });
    const tenant = await createTenant(gw, "Flooded");
    const email = tenant.member.email;
    // The owner has signed in from its address before.
    expect((await userLogin(email, OWNER)).status).toBe(200);
    const floodEnds = performance.now() + 3000;
    const over = () => performance.now() > floodEnds;
    const [statuses, owner] = await Promise.all([
      // Wrong passwords for the owner's email and for others', which keep the hashing busy.
      floodOf(20, 3, [
        { path: "/v1/auth/login", body: { email, password: "wrong password {n} {i}" } },
        {
          path: "/v1/auth/login",
          body: { email: "nobody-{n}-{i}@flood.example", password: "wrong password {i}" },
        },
      ]),
      ownerLogins(over, () => userLogin(email, OWNER)),
    ]);
    // The flood was answered, some of it hashed, much of it refused before hashing.
    expect(statuses[401]).toBeGreaterThan(0);
    expect((statuses[503] ?? 0) + (statuses[429] ?? 0)).toBeGreaterThan(0);
    expect(owner.length).toBeGreaterThan(2);
    expect(owner.map(([status]) => status)).toEqual(owner.map(() => 200));
    for (const [, ms] of owner) expect(ms).toBeLessThan(STARVED_MS);
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
