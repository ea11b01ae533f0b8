import { createI18nEngine } from "@orderline/i18n";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { createTenant, TEST_USERS_CONFIG, type TestTenant, userToken } from "./support/tenants.js";

/** The gateway's answers fed to the front-end engine that consumes them (@orderline/i18n). */
describe("the tenant endpoints with the i18n engine", () => {
  let gw: Gateway;
  let tenant: TestTenant;

  beforeAll(async () => {
    gw = await startGateway({ config: { users: TEST_USERS_CONFIG } });
    tenant = await createTenant(gw, "Engine Co", { member: "de" });
    const admin = await userToken(gw, tenant.admin.email);
    for (const [language, title] of [
      ["en", "Stays"],
      ["de", "Aufenthalte"],
    ]) {
      const response = await gw.app.inject({
        method: "PUT",
        url: "/v1/tenant/i18n-config/booking",
        headers: { authorization: `Bearer ${admin}` },
        payload: { language, overrides: { header: { title } } },
      });
      expect(response.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await gw.close();
  });

  it("applies the tenant's words in the language the answer names, and syncs a language change", async () => {
    const token = await userToken(gw, tenant.member.email);
    const engine = createI18nEngine();
    const dictionaries = {
      en: { header: { title: "Bookings", subtitle: "All bookings" } },
      de: { header: { title: "Buchungen", subtitle: "Alle Buchungen" } },
    };
    engine.registerModuleNamespace("common", {
      en: { ok: "OK" },
      de: { ok: "OK" },
      it: { ok: "OK" },
    });
    engine.registerModuleNamespace("booking", dictionaries);
    await engine.setupI18n({
      storageAdapter: { getLanguage: async () => "en", setLanguage: async () => {} },
    });

    // The member's profile language is de: the answer is in German, whatever the UI shows now.
    const response = await gw.app.inject({
      method: "GET",
      url: "/v1/tenant/i18n-config/booking",
      headers: { authorization: `Bearer ${token}` },
    });
    const body = response.json();
    expect(body.data.language).toBe("de");
    engine.applyTenantConfig(body);
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");

    // The engine's sync callback is PATCH /v1/user/profile.
    await engine.changeLanguage("de", async (language) => {
      const patch = await gw.app.inject({
        method: "PATCH",
        url: "/v1/user/profile",
        headers: { authorization: `Bearer ${token}` },
        payload: { language },
      });
      if (patch.statusCode !== 200) throw new Error(`HTTP ${patch.statusCode}`);
    });
    expect(engine.i18n.t("booking:header.title")).toBe("Aufenthalte");
    expect(engine.i18n.t("booking:header.subtitle")).toBe("Alle Buchungen");

    // A language the UI has but the gateway does not support: the sync fails, the engine reverts.
    await expect(
      engine.changeLanguage("it", async (language) => {
        const patch = await gw.app.inject({
          method: "PATCH",
          url: "/v1/user/profile",
          headers: { authorization: `Bearer ${token}` },
          payload: { language },
        });
        if (patch.statusCode !== 200) throw new Error(`HTTP ${patch.statusCode}`);
      }),
    ).rejects.toThrow("HTTP 422");
    expect(engine.i18n.language).toBe("de");
  });
});
