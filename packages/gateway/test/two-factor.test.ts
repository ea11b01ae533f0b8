import { Secret, TOTP } from "otpauth";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

/**
 * Two-step sign-in (TOTP, RFC 6238) of tenant users over real sockets: set-up, the second step
 * of both sign-ins, refusals (wrong, replayed, throttled), recovery codes, the tenant's policy
 * and the audit rows. Codes are computed here with otpauth, as an authenticator app would.
 */

const STEP_MS = 30_000;
const cookieOf = (answer: HttpAnswer): string =>
  (answer.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";

/** An authenticator app: the code of a step, never one step twice (the server refuses that). */
class Authenticator {
  #lastStep = Number.NEGATIVE_INFINITY;
  readonly #totp: TOTP;

  constructor(secret: string) {
    this.#totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  }

  codeAt(at: number): string {
    return this.#totp.generate({ timestamp: at });
  }

  /**
   * A code the server accepts now: the current step's, or the next one's (the server accepts
   * one step either side); when both were used, waits for the clock to reach a new step.
   */
  async fresh(): Promise<string> {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / STEP_MS);
      for (const step of [current, current + 1]) {
        if (step > this.#lastStep) {
          this.#lastStep = step;
          return this.codeAt(step * STEP_MS);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - now + 50));
    }
  }

  /** A 6-digit code that is none of the steps the server would accept now. */
  wrong(): string {
    const now = Date.now();
    const near = new Set([-2, -1, 0, 1, 2].map((d) => this.codeAt(now + d * STEP_MS)));
    for (const candidate of ["000000", "123456", "999999", "424242"])
      if (!near.has(candidate)) return candidate;
    throw new Error("no wrong code found");
  }
}

describe.each(storeKinds)("two-step sign-in (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let tenant: TestTenant;

  beforeEach(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    tenant = await createTenant(gw, "Factor Co");
  });
  afterEach(async () => {
    await gw.close();
  });

  const call = (method: string, path: string, cookie?: string, body?: unknown) =>
    httpRequest(base, method, path, {
      ...(body === undefined ? {} : { body }),
      headers: { origin: base, ...(cookie ? { cookie } : {}) },
    });

  /** Password step of the console's sign-in. */
  const passwordStep = (email: string) =>
    call("POST", "/v1/auth/session", undefined, { email, password: PASSWORD });

  const signIn = async (email: string): Promise<string> => {
    const answer = await passwordStep(email);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return cookieOf(answer);
  };

  /** A challenge from the password step of a user with a second factor. */
  const challengeFor = async (email: string): Promise<string> => {
    const answer = await passwordStep(email);
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.headers["content-type"]).toContain("application/problem+json");
    expect(answer.body.code).toBe("second_factor_required");
    // No session yet.
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect(typeof answer.body.challenge).toBe("string");
    return answer.body.challenge as string;
  };

  const secondStep = (challenge: string, proof: { code: string } | { recovery_code: string }) =>
    call("POST", "/v1/auth/session/second-factor", undefined, { challenge, ...proof });

  /** Sets up two-step sign-in for the user of `cookie`: the app and the recovery codes. */
  const enrol = async (cookie: string) => {
    const started = await call("POST", "/v1/user/two-factor/enrolment", cookie);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { secret, otpauth_uri } = started.body.data as { secret: string; otpauth_uri: string };
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Orderline:/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    expect(otpauth_uri).toContain("algorithm=SHA1");
    const app = new Authenticator(secret);
    const confirmed = await call("POST", "/v1/user/two-factor/enrolment/confirm", cookie, {
      code: await app.fresh(),
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const codes = (confirmed.body.data as { recovery_codes: string[] }).recovery_codes;
    return { app, secret, codes };
  };

  const actions = async () =>
    (await gw.store.audit.listAuditEvents(tenant.id, { limit: 100 })).map((e) => e.action);

  it("sets up with a first code, then signs in with password and code (cookie and token)", async () => {
    const cookie = await signIn(tenant.member.email);
    const before = await call("GET", "/v1/user/two-factor", cookie);
    expect(before.body.data).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });
    // A wrong first code leaves it off.
    const started = await call("POST", "/v1/user/two-factor/enrolment", cookie);
    const pending = new Authenticator((started.body.data as { secret: string }).secret);
    const wrong = await call("POST", "/v1/user/two-factor/enrolment/confirm", cookie, {
      code: pending.wrong(),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("two_factor_code_invalid");
    expect((await passwordStep(tenant.member.email)).status).toBe(200);

    const { app, secret, codes } = await enrol(cookie);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    const after = await call("GET", "/v1/user/two-factor", cookie);
    expect(after.body.data).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    // At rest the secret is sealed, not the base32 the app holds.
    const stored = await gw.store.twoFactor.find(tenant.member.id);
    expect(stored?.secretSealed).toMatch(/^v1\./);
    expect(stored?.secretSealed).not.toContain(secret);
    // Setting up again while on is refused.
    const again = await call("POST", "/v1/user/two-factor/enrolment", cookie);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("two_factor_already_enabled");

    const challenge = await challengeFor(tenant.member.email);
    const passed = await secondStep(challenge, { code: await app.fresh() });
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    const session = cookieOf(passed);
    expect(session).toMatch(/^orderline_session=/);
    const profile = await call("GET", "/v1/user/profile", session);
    expect((profile.body.data as { email: string }).email).toBe(tenant.member.email);
    // The challenge was spent.
    const spent = await secondStep(challenge, { recovery_code: codes[0] as string });
    expect(spent.status).toBe(401);
    expect(spent.body.code).toBe("second_factor_challenge_invalid");

    // The bearer token's sign-in asks for the second factor too.
    const login = await call("POST", "/v1/auth/login", undefined, {
      email: tenant.member.email,
      password: PASSWORD,
    });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe("second_factor_required");
    expect(login.body.token).toBeUndefined();
    const token = await call("POST", "/v1/auth/login/second-factor", undefined, {
      challenge: login.body.challenge,
      recovery_code: (codes[1] as string).toLowerCase(),
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const bearer = await httpRequest(base, "GET", "/v1/user/profile", {
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(bearer.status).toBe(200);
    // A token challenge does not open a console session, nor the other way round.
    const crossed = await secondStep(
      (
        await call("POST", "/v1/auth/login", undefined, {
          email: tenant.member.email,
          password: PASSWORD,
        })
      ).body.challenge as string,
      { recovery_code: codes[2] as string },
    );
    expect(crossed.body.code).toBe("second_factor_challenge_invalid");
    expect(await actions()).toEqual(
      expect.arrayContaining(["user_two_factor_enrolled", "user_recovery_code_used"]),
    );
  });

  it("refuses a wrong code (401, audited) and throttles repeated wrong codes (429, Retry-After)", async () => {
    const { app } = await enrol(await signIn(tenant.member.email));
    const challenge = await challengeFor(tenant.member.email);
    const free = gw.config.loginThrottle.perAccountAndAddress;
    for (let i = 0; i < free; i++) {
      const refused = await secondStep(challenge, { code: app.wrong() });
      expect(refused.status).toBe(401);
      expect(refused.headers["content-type"]).toContain("application/problem+json");
      expect(refused.body.code).toBe("second_factor_invalid");
    }
    // From now on each failure locks the user's codes from this address for 2, 4, 8 … s.
    let throttled: HttpAnswer | undefined;
    for (let i = 0; i < 10 && !throttled; i++) {
      const answer = await secondStep(challenge, { code: app.wrong() });
      if (answer.status === 429) throttled = answer;
      else expect(answer.body.code).toBe("second_factor_invalid");
    }
    expect(throttled?.body.code).toBe("login_throttled");
    expect(Number(throttled?.headers["retry-after"])).toBeGreaterThan(0);
    // While locked, the right code is not even checked.
    const locked = await secondStep(challenge, { code: await app.fresh() });
    expect(locked.status).toBe(429);
    const failures = (await actions()).filter((a) => a === "user_second_factor_failed");
    expect(failures.length).toBeGreaterThanOrEqual(free);
    // The password step itself is not locked by wrong codes: other counts.
    expect((await passwordStep(tenant.member.email)).body.code).toBe("second_factor_required");
  });

  it("refuses a code used once already, and a recovery code used once already", async () => {
    const { app, codes } = await enrol(await signIn(tenant.admin.email));
    const code = await app.fresh();
    const first = await secondStep(await challengeFor(tenant.admin.email), { code });
    expect(first.status).toBe(200);
    const replayed = await secondStep(await challengeFor(tenant.admin.email), { code });
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe("second_factor_invalid");

    const recovery = codes[3] as string;
    const used = await secondStep(await challengeFor(tenant.admin.email), {
      recovery_code: recovery,
    });
    expect(used.status).toBe(200);
    const reused = await secondStep(await challengeFor(tenant.admin.email), {
      recovery_code: recovery,
    });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe("second_factor_invalid");
    const status = await call("GET", "/v1/user/two-factor", cookieOf(used));
    expect((status.body.data as { recovery_codes_left: number }).recovery_codes_left).toBe(9);
    const audited = await actions();
    expect(audited.filter((a) => a === "user_recovery_code_used")).toHaveLength(1);
    expect(audited).toContain("user_second_factor_failed");
  });

  it("turns off with a current code, not with a wrong one; then the password alone signs in", async () => {
    const cookie = await signIn(tenant.member.email);
    const { app } = await enrol(cookie);
    const wrong = await httpRequest(base, "DELETE", "/v1/user/two-factor", {
      body: { code: app.wrong() },
      headers: { origin: base, cookie },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe("two_factor_code_invalid");
    const off = await httpRequest(base, "DELETE", "/v1/user/two-factor", {
      body: { code: await app.fresh() },
      headers: { origin: base, cookie },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(204);
    expect((await passwordStep(tenant.member.email)).status).toBe(200);
    expect(await actions()).toContain("user_two_factor_disabled");
  });

  it("a tenant requiring it of admins sends an admin without it to set-up before anything else", async () => {
    const admin = await signIn(tenant.admin.email);
    const member = await signIn(tenant.member.email);
    const byMember = await call("PUT", "/v1/tenant/two-factor-policy", member, {
      required_for: "admins",
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("role_forbidden");
    const set = await call("PUT", "/v1/tenant/two-factor-policy", admin, {
      required_for: "admins",
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({ required_for: "admins" });

    // The admin's session (and a new one) may now only read the profile and set up the factor.
    const fresh = await signIn(tenant.admin.email);
    for (const cookie of [admin, fresh]) {
      const refused = await call("GET", "/v1/tenant/users", cookie);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("two_factor_enrolment_required");
      expect((await call("GET", "/v1/user/profile", cookie)).status).toBe(200);
    }
    const status = await call("GET", "/v1/user/two-factor", fresh);
    expect(status.body.data).toMatchObject({ enabled: false, required: true });
    // Members are not affected.
    expect((await call("GET", "/v1/tenant/users", member)).status).toBe(200);
    // A token sign-in of the admin is held to the same.
    const login = await call("POST", "/v1/auth/login", undefined, {
      email: tenant.admin.email,
      password: PASSWORD,
    });
    const bearer = await httpRequest(base, "GET", "/v1/tenant/users", {
      headers: { authorization: `Bearer ${login.body.token}` },
    });
    expect(bearer.body.code).toBe("two_factor_enrolment_required");

    await enrol(fresh);
    expect((await call("GET", "/v1/tenant/users", fresh)).status).toBe(200);
    const policy = await call("GET", "/v1/tenant/two-factor-policy", fresh);
    expect(policy.body.data).toEqual({ required_for: "admins" });
    const events = await gw.store.audit.listAuditEvents(tenant.id, { limit: 100 });
    const changed = events.find((e) => e.action === "tenant_two_factor_policy_changed");
    expect(JSON.parse(changed?.details ?? "{}")).toEqual({ from: "nobody", to: "admins" });
    expect(changed?.actorId).toBe(tenant.admin.id);
  });

  it("an admin turns off a member's two-step sign-in (a lost phone); a member cannot", async () => {
    const admin = await signIn(tenant.admin.email);
    const member = await signIn(tenant.member.email);
    await enrol(member);
    const path = `/v1/tenant/users/${tenant.member.id}/two-factor`;
    const byMember = await call("DELETE", `/v1/tenant/users/${tenant.admin.id}/two-factor`, member);
    expect(byMember.body.code).toBe("role_forbidden");
    expect((await call("DELETE", path, admin)).status).toBe(204);
    expect((await passwordStep(tenant.member.email)).status).toBe(200);
    const again = await call("DELETE", path, admin);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("two_factor_not_enabled");
    const elsewhere = await call("DELETE", "/v1/tenant/users/usr_nobody/two-factor", admin);
    expect(elsewhere.body.code).toBe("user_not_found");
    expect(await actions()).toContain("user_two_factor_reset");
  });
});
