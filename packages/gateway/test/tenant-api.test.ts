import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  json,
  login,
  order,
  signedHeaders,
  startGateway,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
  userLogin,
  userToken,
} from "./support/tenants.js";

describe.each(storeKinds)("tenant API (%s store)", (kind) => {
  let gw: Gateway;
  let clock: FakeClock;
  let a: TestTenant;
  let b: TestTenant;

  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG } });
    a = await createTenant(gw, "Alpha Foods", { member: "de" });
    b = await createTenant(gw, "Beta Tools");
  });
  afterEach(async () => {
    await gw.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const getConfig = (token: string, url = "/v1/tenant/i18n-config", headers = {}) =>
    gw.app.inject({ method: "GET", url, headers: { ...bearer(token), ...headers } });
  const putConfig = (token: string, namespace: string, payload: unknown, url?: string) =>
    gw.app.inject({
      method: "PUT",
      url: url ?? `/v1/tenant/i18n-config/${namespace}`,
      headers: bearer(token),
      payload: payload as Record<string, unknown>,
    });

  describe("sign-in", () => {
    it("signs a user in and refreshes the token once; a second refresh revokes the session", async () => {
      const response = await userLogin(gw, a.admin.email);
      expect(response.statusCode).toBe(200);
      const { token, expired_at } = response.json();
      expect(expired_at).toBe(clock.seconds + 12 * 60 * 60);
      const refreshed = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/refresh",
        payload: { token },
      });
      expect(refreshed.statusCode).toBe(200);
      const again = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/refresh",
        payload: { token },
      });
      expect(again.statusCode).toBe(401);
      expect(json(again).code).toBe("refresh_token_reused");
      const profile = await gw.app.inject({
        method: "GET",
        url: "/v1/user/profile",
        headers: bearer(refreshed.json().token),
      });
      expect(profile.statusCode).toBe(401);
      expect(json(profile).code).toBe("session_revoked");
    });

    it("applies the partner tokens' refresh limits: grace window and session cap", async () => {
      const token = json(await userLogin(gw, a.admin.email)).token as string;
      clock.advanceSeconds(12 * 60 * 60 + 24 * 60 * 60 + 1);
      const late = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/refresh",
        payload: { token },
      });
      expect(json(late).code).toBe("refresh_window_closed");
      expect(String(json(late).detail)).toContain("sign in again");

      let current = json(await userLogin(gw, a.admin.email)).token as string;
      let refreshes = 0;
      for (;;) {
        clock.advanceSeconds(12 * 60 * 60);
        const next = await gw.app.inject({
          method: "POST",
          url: "/v1/auth/refresh",
          payload: { token: current },
        });
        if (next.statusCode !== 200) {
          expect(json(next).code, next.body).toBe("session_expired");
          break;
        }
        current = next.json().token;
        refreshes += 1;
      }
      // Every 12 hours for 30 days from sign-in, then no more.
      expect(refreshes).toBe(60);
    });

    it("cuts off every token of a user whose password is reset", async () => {
      const token = json(await userLogin(gw, a.member.email)).token as string;
      await gw.users.setPassword(a.member.email, "a brand new password");
      const old = await getConfig(token, "/v1/user/profile");
      expect(old.statusCode).toBe(401);
      expect(String(json(old).detail)).toContain("password was changed");
      const refresh = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/refresh",
        payload: { token },
      });
      expect(refresh.statusCode).toBe(401);
      expect((await userLogin(gw, a.member.email)).statusCode).toBe(401);
      expect((await userLogin(gw, a.member.email, "a brand new password")).statusCode).toBe(200);
    });

    it("accepts the email in any case and with spaces around it", async () => {
      const response = await userLogin(gw, `  ${a.admin.email.toUpperCase()} `);
      expect(response.statusCode).toBe(200);
    });

    it("answers an unknown email and a wrong password alike", async () => {
      const unknown = await userLogin(gw, "nobody@nowhere.example");
      const wrong = await userLogin(gw, a.admin.email, "not the password at all");
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      const strip = (body: Record<string, unknown>) => ({ ...body, request_id: undefined });
      expect(strip(json(unknown))).toEqual(strip(json(wrong)));
      expect(json(wrong).code).toBe("invalid_credentials");
    });

    it("slows down repeated failures for one account, even with the right password, and forgets them after a success", async () => {
      for (let i = 0; i < 4; i++) {
        expect((await userLogin(gw, a.member.email, `wrong password ${i}`)).statusCode).toBe(401);
      }
      // The fifth failure locks the account for 2 s.
      expect((await userLogin(gw, a.member.email, "wrong password 5")).statusCode).toBe(401);
      const locked = await userLogin(gw, a.member.email);
      expect(locked.statusCode).toBe(429);
      expect(json(locked).code).toBe("login_throttled");
      expect(locked.headers["retry-after"]).toBe("2");
      // Other accounts are not affected.
      expect((await userLogin(gw, a.admin.email)).statusCode).toBe(200);

      clock.advanceSeconds(2);
      expect((await userLogin(gw, a.member.email, "wrong again")).statusCode).toBe(401);
      const longer = await userLogin(gw, a.member.email);
      expect(longer.statusCode).toBe(429);
      expect(longer.headers["retry-after"]).toBe("4");

      clock.advanceSeconds(4);
      expect((await userLogin(gw, a.member.email)).statusCode).toBe(200);
      // The count starts again after a success.
      expect((await userLogin(gw, a.member.email, "one slip")).statusCode).toBe(401);
      expect((await userLogin(gw, a.member.email)).statusCode).toBe(200);
    });

    it("throttles an unknown address like a known one", async () => {
      for (let i = 0; i < 5; i++) await userLogin(gw, "ghost@nowhere.example", `guess ${i}`);
      const response = await userLogin(gw, "ghost@nowhere.example");
      expect(response.statusCode).toBe(429);
    });

    it("keeps the throttle in the store, so another gateway on the same store sees it", async () => {
      for (let i = 0; i < 5; i++) await userLogin(gw, a.member.email, `guess ${i}`);
      const second = await startGateway({
        clock,
        dir: gw.config.dataDir,
        config: {
          users: TEST_USERS_CONFIG,
          databaseUrl: gw.config.databaseUrl,
          masterKey: undefined,
        },
      });
      try {
        expect((await userLogin(second, a.member.email)).statusCode).toBe(429);
      } finally {
        await second.close();
      }
    });
  });

  describe("token audiences", () => {
    it("refuses a partner token on the tenant API and a user token on the partner API", async () => {
      const partner = await createPartner(gw);
      const partnerToken = await login(gw, partner);
      for (const url of ["/v1/tenant/i18n-config", "/v1/user/profile", "/v1/orders"]) {
        const response = await getConfig(partnerToken, url);
        expect(response.statusCode).toBe(401);
        expect(json(response).code).toBe("token_invalid");
        expect(String(json(response).detail)).toContain("another API");
      }
      const refresh = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/refresh",
        payload: { token: partnerToken },
      });
      expect(refresh.statusCode).toBe(401);

      const user = await userToken(gw, a.admin.email);
      const timestamp = String(Math.floor(clock.ms / 1000));
      const created = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: signedHeaders(partner, user, timestamp),
        payload: order(),
      });
      expect(created.statusCode).toBe(401);
      expect(json(created).code).toBe("token_invalid");
      const partnerRefresh = await gw.app.inject({
        method: "POST",
        url: "/api/v1/auth/refresh",
        payload: { token: user },
      });
      expect(partnerRefresh.statusCode).toBe(401);
    });

    it("refuses requests without a token, and expired tokens", async () => {
      const none = await gw.app.inject({ method: "GET", url: "/v1/tenant/i18n-config" });
      expect(none.statusCode).toBe(401);
      expect(json(none).code).toBe("token_missing");
      const token = await userToken(gw, a.admin.email);
      clock.advanceSeconds(12 * 60 * 60);
      const expired = await getConfig(token);
      expect(json(expired).code).toBe("token_expired");
      expect(String(json(expired).detail)).toContain("/v1/auth/refresh");
    });
  });

  describe("vocabulary", () => {
    it("stores overrides per language and answers in the profile language unless ?language= asks", async () => {
      const admin = await userToken(gw, a.admin.email);
      const member = await userToken(gw, a.member.email);
      const put = await putConfig(admin, "common", {
        language: "en",
        overrides: { header: { title: "Reservations" }, save: "Keep" },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json().data).toEqual({
        namespace: "common",
        language: "en",
        overrides: { header: { title: "Reservations" }, save: "Keep" },
        changes: { added: ["header.title", "save"], changed: [], removed: [] },
      });
      await putConfig(admin, "common", { language: "de", overrides: { save: "Behalten" } });

      // The admin's profile language is en, the member's de.
      const adminView = await getConfig(admin);
      expect(adminView.statusCode).toBe(200);
      expect(adminView.json()).toEqual({
        data: {
          namespace: "common",
          language: "en",
          overrides: { header: { title: "Reservations" }, save: "Keep" },
        },
      });
      expect(adminView.headers["content-language"]).toBe("en");
      const memberView = await getConfig(member);
      expect(memberView.json().data).toEqual({
        namespace: "common",
        language: "de",
        overrides: { save: "Behalten" },
      });
      // The browser's Accept-Language does not override the language the user chose.
      const browser = await getConfig(member, undefined, {
        "accept-language": "fr-CA;q=0.2, en-US, de;q=0.5",
      });
      expect(browser.json().data.language).toBe("de");
      expect(browser.json().data.overrides).toEqual({ save: "Behalten" });
      // An explicit request does, in the list's spelling.
      const asked = await getConfig(member, "/v1/tenant/i18n-config?language=EN");
      expect(asked.json().data).toEqual({
        namespace: "common",
        language: "en",
        overrides: { header: { title: "Reservations" }, save: "Keep" },
      });
      expect(asked.headers["content-language"]).toBe("en");
      const regional = await getConfig(member, "/v1/tenant/i18n-config/common?language=zh-cn");
      expect(regional.json().data.language).toBe("zh-CN");
      expect(regional.json().data.overrides).toEqual({});
      const unsupported = await getConfig(member, "/v1/tenant/i18n-config?language=ko");
      expect(unsupported.statusCode).toBe(422);
      expect(unsupported.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(json(unsupported).code).toBe("language_unsupported");
      expect(json(unsupported).supported_languages).toContain("de");
      const empty = await getConfig(member, "/v1/tenant/i18n-config?language=");
      expect(json(empty).code).toBe("validation_failed");
    });

    it("answers for other namespaces, each on its own", async () => {
      const admin = await userToken(gw, a.admin.email);
      await putConfig(admin, "booking", { language: "en", overrides: { title: "Stays" } });
      const booking = await getConfig(admin, "/v1/tenant/i18n-config/booking");
      expect(booking.json().data).toEqual({
        namespace: "booking",
        language: "en",
        overrides: { title: "Stays" },
      });
      const common = await getConfig(admin);
      expect(common.json().data.overrides).toEqual({});
      const dotted = await getConfig(admin, "/v1/tenant/i18n-config/..%2Fbooking");
      expect(dotted.statusCode).toBe(400);
      for (const name of ["__proto__", "constructor", "prototype"]) {
        const special = await putConfig(admin, name, { language: "en", overrides: { a: "b" } });
        expect(special.statusCode, name).toBe(400);
        expect(json(special).code).toBe("validation_failed");
      }
    });

    it("gives a strong ETag and 304 until the overrides change", async () => {
      const admin = await userToken(gw, a.admin.email);
      await putConfig(admin, "common", { language: "en", overrides: { a: "1" } });
      const first = await getConfig(admin);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      expect(first.headers["cache-control"]).toBe("private, no-cache");
      expect(first.headers.vary).toBe("Authorization");
      const cached = await getConfig(admin, undefined, { "if-none-match": etag });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe("");
      expect(cached.headers.etag).toBe(etag);
      expect(
        (await getConfig(admin, undefined, { "if-none-match": `"x", W/${etag}` })).statusCode,
      ).toBe(304);
      // Another language is another representation.
      const german = await getConfig(admin, "/v1/tenant/i18n-config?language=de", {
        "if-none-match": etag,
      });
      expect(german.statusCode).toBe(200);
      await putConfig(admin, "common", { language: "en", overrides: { a: "2" } });
      const changed = await getConfig(admin, undefined, { "if-none-match": etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json().data.overrides).toEqual({ a: "2" });
    });

    it("says what a replacement changed, and an empty object clears", async () => {
      const admin = await userToken(gw, a.admin.email);
      await putConfig(admin, "common", {
        language: "en",
        overrides: { header: { title: "A", subtitle: "B" }, footer: "C" },
      });
      const second = await putConfig(admin, "common", {
        language: "en",
        overrides: { header: { title: "A2" }, footer: "C", nav: { home: "Start" } },
      });
      expect(second.json().data.changes).toEqual({
        added: ["nav.home"],
        changed: ["header.title"],
        removed: ["header.subtitle"],
      });
      const cleared = await putConfig(admin, "common", { language: "en", overrides: {} });
      expect(cleared.json().data.changes.removed).toEqual(["footer", "header.title", "nav.home"]);
      expect((await getConfig(admin)).json().data.overrides).toEqual({});
    });

    it("lets only admins change the vocabulary", async () => {
      const member = await userToken(gw, a.member.email);
      const response = await putConfig(member, "common", { language: "en", overrides: { a: "b" } });
      expect(response.statusCode).toBe(403);
      expect(json(response).code).toBe("role_forbidden");
      const admin = await userToken(gw, a.admin.email);
      expect((await getConfig(admin)).json().data.overrides).toEqual({});
    });

    it("refuses prototype pollution and out-of-bounds trees, changing nothing", async () => {
      const admin = await userToken(gw, a.admin.email);
      await putConfig(admin, "common", { language: "en", overrides: { keep: "me" } });
      const raw = (body: string) =>
        gw.app.inject({
          method: "PUT",
          url: "/v1/tenant/i18n-config/common",
          headers: { ...bearer(admin), "content-type": "application/json" },
          payload: body,
        });
      const attempts = [
        '{"language":"en","overrides":{"__proto__":{"polluted":"yes"}}}',
        '{"language":"en","overrides":{"a":{"constructor":{"prototype":{"polluted":"yes"}}}}}',
        '{"language":"en","overrides":{"constructor":"x"}}',
        '{"language":"en","overrides":{"nested":{"prototype":"x"}}}',
        '{"language":"en","__proto__":{"polluted":"yes"},"overrides":{}}',
      ];
      for (const body of attempts) {
        const response = await raw(body);
        expect(response.statusCode, body).toBe(400);
        expect(["overrides_invalid", "malformed_body", "validation_failed"]).toContain(
          json(response).code,
        );
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const named = await raw('{"language":"en","overrides":{"constructor":"x"}}');
      expect(json(named).code).toBe("overrides_invalid");
      expect(json(named).errors).toEqual([
        {
          in: "body",
          pointer: "/overrides/constructor",
          message: "the key 'constructor' is not allowed",
        },
      ]);

      let deep: Record<string, unknown> = { leaf: "x" };
      for (let i = 0; i < 9; i++) deep = { level: deep };
      const tooMany = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`k${i}`, "v"]));
      for (const overrides of [
        deep,
        tooMany,
        { long: "x".repeat(4001) },
        { list: ["a"] },
        { count: 3 },
        { "a.b": "dotted" },
        { empty: {} },
        { nothing: null },
      ]) {
        const response = await putConfig(admin, "common", { language: "en", overrides });
        expect(response.statusCode, JSON.stringify(overrides).slice(0, 80)).toBe(400);
        expect(json(response).code).toBe("overrides_invalid");
      }
      const language = await putConfig(admin, "common", { language: "xx-nope", overrides: {} });
      expect(language.statusCode).toBe(422);
      expect(json(language).code).toBe("language_unsupported");
      expect((await getConfig(admin)).json().data.overrides).toEqual({ keep: "me" });
    });
  });

  describe("tenant isolation", () => {
    it("never shows or changes another tenant's vocabulary, however the request names it", async () => {
      const adminA = await userToken(gw, a.admin.email);
      const adminB = await userToken(gw, b.admin.email);
      await putConfig(adminB, "common", { language: "en", overrides: { secret: "Beta words" } });
      await putConfig(adminA, "common", { language: "en", overrides: { mine: "Alpha words" } });

      const ownView = await getConfig(adminA);
      expect(ownView.json().data.overrides).toEqual({ mine: "Alpha words" });
      for (const url of [
        `/v1/tenant/i18n-config?tenant_id=${b.id}`,
        `/v1/tenant/i18n-config?tenant=${b.id}`,
        `/v1/tenant/i18n-config?tenantId=${b.id}`,
        `/v1/tenant/i18n-config/common?TENANT=${b.id}`,
        `/v1/tenant/i18n-config?org_id=${b.id}`,
      ]) {
        const response = await getConfig(adminA, url);
        expect(response.statusCode, url).toBe(400);
        expect(json(response).code).toBe("tenant_parameter_refused");
        expect(response.body).not.toContain("Beta words");
      }
      const header = await getConfig(adminA, undefined, { "x-tenant-id": b.id });
      expect(json(header).code).toBe("tenant_parameter_refused");
      const otherQuery = await getConfig(adminA, "/v1/tenant/i18n-config?lang=de");
      expect(otherQuery.statusCode).toBe(400);
      expect(json(otherQuery).code).toBe("validation_failed");

      const bodyNamed = await gw.app.inject({
        method: "PUT",
        url: "/v1/tenant/i18n-config/common",
        headers: bearer(adminA),
        payload: { tenant_id: b.id, language: "en", overrides: { secret: "overwritten" } },
      });
      expect(bodyNamed.statusCode).toBe(400);
      expect(json(bodyNamed).code).toBe("tenant_parameter_refused");
      const queryNamed = await putConfig(
        adminA,
        "common",
        { language: "en", overrides: { secret: "overwritten" } },
        `/v1/tenant/i18n-config/common?tenant=${b.id}`,
      );
      expect(json(queryNamed).code).toBe("tenant_parameter_refused");
      // B's words are untouched and never reached A.
      expect((await getConfig(adminB)).json().data.overrides).toEqual({ secret: "Beta words" });
      expect((await getConfig(adminA)).json().data.overrides).toEqual({ mine: "Alpha words" });
    });

    it("refuses a token whose tenant claim was altered", async () => {
      const token = await userToken(gw, a.admin.email);
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      const forged = Buffer.from(JSON.stringify({ ...claims, tid: b.id })).toString("base64url");
      const response = await getConfig(`${header}.${forged}.${signature}`);
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe("token_invalid");
      const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${forged}.`;
      expect((await getConfig(unsigned)).statusCode).toBe(401);
    });

    it("shows a tenant's users the orders of its partners only, paged", async () => {
      const partnerA = await tenantPartner(gw, a.id, "Alpha Supplier");
      const partnerB = await tenantPartner(gw, b.id, "Beta Supplier");
      const loose = await createPartner(gw, undefined, "No Tenant");
      const create = async (partner: typeof partnerA, po: string) => {
        const token = await login(gw, partner);
        const response = await gw.app.inject({
          method: "POST",
          url: "/api/v1/sales-orders",
          headers: signedHeaders(partner, token, String(clock.seconds)),
          payload: order({ purchase_order_no: po }),
        });
        expect(response.statusCode).toBe(201);
        return response.json().data.id as string;
      };
      const idsA = [
        await create(partnerA, "A-1"),
        await create(partnerA, "A-2"),
        await create(partnerA, "A-3"),
      ];
      const idB = await create(partnerB, "B-1");
      await create(loose, "L-1");

      const member = await userToken(gw, a.member.email);
      const page1 = await getConfig(member, "/v1/orders?limit=2");
      expect(page1.statusCode).toBe(200);
      expect(page1.json().data.map((o: { id: string }) => o.id)).toEqual([idsA[2], idsA[1]]);
      expect(page1.json().data[0].client_id).toBe(partnerA.clientId);
      const cursor = page1.json().next_cursor as string;
      const page2 = await getConfig(
        member,
        `/v1/orders?limit=2&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(page2.json().data.map((o: { id: string }) => o.id)).toEqual([idsA[0]]);
      expect(page2.json().next_cursor).toBeNull();

      const one = await getConfig(member, `/v1/orders/${idsA[0]}`);
      expect(one.json().data.purchase_order_no).toBe("A-1");
      const other = await getConfig(member, `/v1/orders/${idB}`);
      expect(other.statusCode).toBe(404);
      expect(json(other).code).toBe("order_not_found");
      const named = await getConfig(member, `/v1/orders/${idB}?tenant_id=${b.id}`);
      expect(json(named).code).toBe("tenant_parameter_refused");
      const listNamed = await getConfig(member, `/v1/orders?tenant=${b.id}`);
      expect(json(listNamed).code).toBe("tenant_parameter_refused");

      const memberB = await userToken(gw, b.member.email);
      const listB = await getConfig(memberB, "/v1/orders");
      expect(listB.json().data.map((o: { id: string }) => o.id)).toEqual([idB]);
    });
  });

  describe("profile", () => {
    it("reads the profile and changes the language to a supported tag only", async () => {
      const token = await userToken(gw, a.member.email);
      const profile = await getConfig(token, "/v1/user/profile");
      expect(profile.json().data).toMatchObject({
        email: a.member.email,
        role: "member",
        language: "de",
        tenant: { id: a.id, name: "Alpha Foods" },
        supported_languages: TEST_USERS_CONFIG.languages,
      });
      const patch = (language: unknown) =>
        gw.app.inject({
          method: "PATCH",
          url: "/v1/user/profile",
          headers: bearer(token),
          payload: { language },
        });
      const changed = await patch("EN-gb");
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.language).toBe("en-GB");
      expect((await getConfig(token, "/v1/user/profile")).json().data.language).toBe("en-GB");
      // The vocabulary now answers in the new language.
      expect((await getConfig(token)).json().data.language).toBe("en-GB");

      for (const bad of ["ko", "not a tag", "en_US"]) {
        const refused = await patch(bad);
        expect(refused.statusCode, bad).toBe(422);
        expect(json(refused).code).toBe("language_unsupported");
        expect(json(refused).supported_languages).toEqual(TEST_USERS_CONFIG.languages);
      }
      expect((await patch(42)).statusCode).toBe(400);
      const extra = await gw.app.inject({
        method: "PATCH",
        url: "/v1/user/profile",
        headers: bearer(token),
        payload: { language: "fr", role: "admin" },
      });
      expect(extra.statusCode).toBe(400);
      expect((await getConfig(token, "/v1/user/profile")).json().data).toMatchObject({
        language: "en-GB",
        role: "member",
      });
      const named = await gw.app.inject({
        method: "PATCH",
        url: "/v1/user/profile",
        headers: bearer(token),
        payload: { language: "fr", tenant: b.id },
      });
      expect(json(named).code).toBe("tenant_parameter_refused");
    });
  });

  it("keeps the password hashed with scrypt", async () => {
    const user = await gw.store.tenants.findUserByEmail(a.admin.email);
    expect(user?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);
  });
});
