import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

/** The console's cookie session, over real sockets: its cookie, CSRF check, and its ends. */

const cookieOf = (answer: HttpAnswer): string => {
  const header = answer.headers["set-cookie"]?.[0] ?? "";
  return header.split(";")[0] ?? "";
};

const signIn = async (base: string, email: string) => {
  const answer = await httpRequest(base, "POST", "/v1/auth/session", {
    body: { email, password: PASSWORD },
    headers: { origin: base, "user-agent": "Test browser 1.0" },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { answer, cookie: cookieOf(answer) };
};

/** GET /v1/user/profile with the cookie only (what a console tab sends). */
const profileWith = (base: string, cookie: string) =>
  httpRequest(base, "GET", "/v1/user/profile", { headers: { cookie } });

describe.each(storeKinds)("console sessions (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let tenant: TestTenant;

  beforeEach(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    tenant = await createTenant(gw, "Cookie Co");
  });
  afterEach(async () => {
    await gw.close();
  });

  it("signs in with an HttpOnly, Secure, SameSite=Strict cookie on the tenant API's path", async () => {
    const { answer, cookie } = await signIn(base, tenant.admin.email);
    const header = answer.headers["set-cookie"]?.[0] ?? "";
    const attributes = header.split(";").map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(["Path=/v1", "HttpOnly", "Secure", "SameSite=Strict"]),
    );
    expect(cookie).toMatch(/^orderline_session=[A-Za-z0-9_-]{43}$/);
    expect(answer.headers["cache-control"]).toBe("no-store");
    const profile = await profileWith(base, cookie);
    expect(profile.status).toBe(200);
    expect((profile.body.data as { email: string }).email).toBe(tenant.admin.email);
    // Bearer tokens go on working for API clients.
    const login = await httpRequest(base, "POST", "/v1/auth/login", {
      body: { email: tenant.admin.email, password: PASSWORD },
    });
    const bearer = await httpRequest(base, "GET", "/v1/user/profile", {
      headers: { authorization: `Bearer ${login.body.token}` },
    });
    expect(bearer.status).toBe(200);
  });

  it("refuses a change from another site, or one with the cookie and no Origin", async () => {
    const { cookie } = await signIn(base, tenant.admin.email);
    const change = (headers: Record<string, string>) =>
      httpRequest(base, "PATCH", "/v1/user/profile", { body: { language: "de" }, headers });
    for (const headers of [
      { cookie, origin: "https://evil.example" },
      { cookie, origin: "null" },
      { cookie },
      { cookie, "sec-fetch-site": "cross-site" },
      // Without the cookie too (a browser that did not send it): refused before anything else.
      { origin: "https://evil.example" },
    ] as Record<string, string>[]) {
      const refused = await change(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers["content-type"]).toContain("application/problem+json");
      expect(refused.body.code).toBe("cross_site_refused");
    }
    // A form post from another site: refused before its body is parsed (not a 415).
    const form = await httpRequest(base, "POST", "/v1/tenant/users", {
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
        cookie,
      },
    });
    expect(form.body.code).toBe("cross_site_refused");
    expect((await profileWith(base, cookie)).body.data).toMatchObject({ language: "en" });
    const same = await change({ cookie, origin: base });
    expect(same.status).toBe(200);
  });

  it("sign-out ends the session at once: the cookie from before answers 401 session_ended", async () => {
    const { cookie } = await signIn(base, tenant.member.email);
    const other = await signIn(base, tenant.member.email);
    expect((await profileWith(base, cookie)).status).toBe(200);
    const out = await httpRequest(base, "DELETE", "/v1/auth/session", {
      headers: { cookie, origin: base },
    });
    expect(out.status).toBe(204);
    expect(out.headers["set-cookie"]?.[0]).toContain("Max-Age=0");
    const after = await profileWith(base, cookie);
    expect(after.status).toBe(401);
    expect(after.headers["content-type"]).toContain("application/problem+json");
    expect(after.body.code).toBe("session_ended");
    // The user's other session (another browser) is not touched.
    expect((await profileWith(base, other.cookie)).status).toBe(200);
  });

  it("an admin sees a user's sessions and ends one or all; disabling the user ends them", async () => {
    const admin = await signIn(base, tenant.admin.email);
    const first = await signIn(base, tenant.member.email);
    const second = await signIn(base, tenant.member.email);
    const sessionsPath = `/v1/tenant/users/${tenant.member.id}/sessions`;
    const list = async () =>
      (await httpRequest(base, "GET", sessionsPath, { headers: { cookie: admin.cookie } })).body
        .data as { id: string; user_agent: string }[];
    const open = await list();
    expect(open.map((s) => s.id).sort()).toEqual(
      [first.answer.body.data, second.answer.body.data].map((d) => (d as { id: string }).id).sort(),
    );
    expect(open[0]?.user_agent).toBe("Test browser 1.0");

    // A member may not look.
    const byMember = await httpRequest(base, "GET", sessionsPath, {
      headers: { cookie: first.cookie },
    });
    expect(byMember.body.code).toBe("role_forbidden");

    const firstId = (first.answer.body.data as { id: string }).id;
    const ended = await httpRequest(base, "DELETE", `${sessionsPath}/${firstId}`, {
      headers: { cookie: admin.cookie, origin: base },
    });
    expect(ended.status).toBe(204);
    expect((await profileWith(base, first.cookie)).body.code).toBe("session_ended");
    expect((await profileWith(base, second.cookie)).status).toBe(200);
    expect((await list()).map((s) => s.id)).toEqual([
      (second.answer.body.data as { id: string }).id,
    ]);

    const disabled = await httpRequest(base, "PATCH", `/v1/tenant/users/${tenant.member.id}`, {
      body: { disabled: true },
      headers: { cookie: admin.cookie, origin: base },
    });
    expect(disabled.status).toBe(200);
    expect((await profileWith(base, second.cookie)).body.code).toBe("session_ended");
    expect(await list()).toEqual([]);

    // Enabled again: the old cookies stay dead; a new sign-in works, and "end all" ends it.
    await httpRequest(base, "PATCH", `/v1/tenant/users/${tenant.member.id}`, {
      body: { disabled: false },
      headers: { cookie: admin.cookie, origin: base },
    });
    expect((await profileWith(base, second.cookie)).status).toBe(401);
    const third = await signIn(base, tenant.member.email);
    const all = await httpRequest(base, "DELETE", sessionsPath, {
      headers: { cookie: admin.cookie, origin: base },
    });
    expect(all.body.data).toEqual({ ended: 1 });
    expect((await profileWith(base, third.cookie)).body.code).toBe("session_ended");

    // Another tenant's admin cannot see or end them.
    const other = await createTenant(gw, "Other Co");
    const stranger = await signIn(base, other.admin.email);
    const peek = await httpRequest(base, "GET", sessionsPath, {
      headers: { cookie: stranger.cookie },
    });
    expect(peek.status).toBe(404);
  });

  it("a wrong password is refused like the token sign-in, and an unknown cookie is a 401", async () => {
    const wrong = await httpRequest(base, "POST", "/v1/auth/session", {
      body: { email: tenant.admin.email, password: "not it" },
      headers: { origin: base },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("invalid_credentials");
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    const forged = await profileWith(base, `orderline_session=${"A".repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe("token_invalid");
  });
});

describe.runIf(storeKinds.includes("postgres"))("console sign-out on two instances", () => {
  const gateways: Gateway[] = [];
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
  });

  it("the cookie from before sign-out answers 401 on both instances of one PostgreSQL database", async () => {
    const a = await startGateway({ store: "postgres", config: { users: TEST_USERS_CONFIG } });
    gateways.push(a);
    // The same data directory: the same master key, as two instances of one deployment have.
    const b = await startGateway({
      dir: a.dir,
      config: { users: TEST_USERS_CONFIG, databaseUrl: a.config.databaseUrl },
    });
    gateways.push(b);
    const bases = [
      await a.app.listen({ port: 0, host: "127.0.0.1" }),
      await b.app.listen({ port: 0, host: "127.0.0.1" }),
    ];
    const tenant = await createTenant(a, "Two Instances");
    const { cookie } = await signIn(bases[0] ?? "", tenant.member.email);
    for (const base of bases) expect((await profileWith(base, cookie)).status).toBe(200);

    // Signed out on B; nothing to wait for on A.
    const out = await httpRequest(bases[1] ?? "", "DELETE", "/v1/auth/session", {
      headers: { cookie, origin: bases[1] ?? "" },
    });
    expect(out.status).toBe(204);
    for (const base of bases) {
      const after = await profileWith(base, cookie);
      expect(after.status).toBe(401);
      expect(after.body.code).toBe("session_ended");
    }
  });
});
