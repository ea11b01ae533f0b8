import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  createI18nEngine,
  createTenantWordsCache,
  defineEnterpriseModule,
  type KeyValueStorage,
  tenantWordsKey,
} from "../src/index.js";
import { booking, common } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { Probe, renderInModule } from "./support/render.js";

const body = (language: string, title: string) => ({
  data: { namespace: "booking", language, overrides: { header: { title } } },
});

describe("createTenantWordsCache", () => {
  it("keeps bodies per tenant, version, language and namespace", () => {
    localStorage.clear();
    const acme = createTenantWordsCache({ storage: localStorage, tenant: "acme", version: "b1" });
    acme.write("de", "booking", { body: body("de", "Aufträge"), etag: '"abc"' });
    expect(acme.read("de", "booking")).toEqual({ body: body("de", "Aufträge"), etag: '"abc"' });
    expect(localStorage.getItem(tenantWordsKey("acme", "b1", "de", "booking"))).not.toBeNull();
    // Another language, another tenant or another build reads nothing.
    expect(acme.read("en", "booking")).toBeUndefined();
    expect(
      createTenantWordsCache({ storage: localStorage, tenant: "globex", version: "b1" }).read(
        "de",
        "booking",
      ),
    ).toBeUndefined();
    expect(
      createTenantWordsCache({ storage: localStorage, tenant: "acme", version: "b2" }).read(
        "de",
        "booking",
      ),
    ).toBeUndefined();
    acme.remove("de", "booking");
    expect(acme.read("de", "booking")).toBeUndefined();
  });

  it("drops a damaged or mismatched entry and reports it", () => {
    localStorage.clear();
    const errors: string[] = [];
    const cache = createTenantWordsCache({
      storage: localStorage,
      tenant: "acme",
      onError: (m) => errors.push(m),
    });
    const key = tenantWordsKey("acme", "1", "de", "booking");
    localStorage.setItem(key, "{not json");
    expect(cache.read("de", "booking")).toBeUndefined();
    expect(localStorage.getItem(key)).toBeNull();
    // Words stored under the wrong language are not painted as German.
    localStorage.setItem(key, JSON.stringify({ body: body("en", "Orders") }));
    expect(cache.read("de", "booking")).toBeUndefined();
    expect(errors).toHaveLength(2);
  });

  it("a storage that refuses writes costs nothing but the cache", () => {
    const full: KeyValueStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException("quota", "QuotaExceededError");
      },
      removeItem: () => {},
    };
    const errors: unknown[] = [];
    const cache = createTenantWordsCache({
      storage: full,
      tenant: "acme",
      onError: (_m, cause) => errors.push(cause),
    });
    expect(() => cache.write("de", "booking", { body: body("de", "x") })).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(() => createTenantWordsCache({ storage: full, tenant: "" })).toThrow(TypeError);
    expect(() => cache.read("../x", "booking")).toThrow(/not a language code/);
  });

  it("cached words paint with the first render after a reload", async () => {
    localStorage.clear();
    // First visit: the body arrives from the network and is cached.
    createTenantWordsCache({ storage: localStorage, tenant: "acme" }).write("de", "booking", {
      body: body("de", "Aufträge"),
    });
    // Reload: a new engine, setup, cached words applied before the UI mounts.
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    engine.registerModuleNamespace("booking", booking);
    await engine.setupI18n({ storageAdapter: new MemoryStorage("de") });
    const cached = createTenantWordsCache({ storage: localStorage, tenant: "acme" }).read(
      engine.i18n.language,
      "booking",
    );
    if (cached) engine.applyTenantConfig(cached.body);
    renderInModule(
      engine,
      defineEnterpriseModule({ translationNamespace: "booking" }),
      <Probe k="header.title" />,
    );
    expect(screen.getByTestId("probe").textContent).toBe("Aufträge");
  });
});
