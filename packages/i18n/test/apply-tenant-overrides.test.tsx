import { act, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createI18nEngine, defineEnterpriseModule } from "../src/index.js";
import { booking, common, startEngine } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { Probe, renderInModule } from "./support/render.js";

describe("applyTenantOverrides", () => {
  it("deep-merges: only the given keys change, the rest stay", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Reservations" } });
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");
    expect(engine.i18n.t("booking:header.subtitle", { customer: "ACME" })).toBe(
      "Reserve a slot for ACME",
    );
    expect(engine.i18n.t("booking:table.empty")).toBe("No bookings yet");
    expect(engine.i18n.t("booking:actions.create")).toBe("New booking");
  });

  it("later overrides add to earlier ones", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Reservations" } });
    engine.applyTenantOverrides("booking", { actions: { create: "New reservation" } });
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");
    expect(engine.i18n.t("booking:actions.create")).toBe("New reservation");
  });

  it("wins over a namespace registered lazily afterwards, and over more languages later", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.applyTenantOverrides("booking", { header: { title: "Reservations" } });
    engine.applyTenantOverrides("booking", { header: { title: "Reservierungen" } }, { lng: "de" });
    engine.registerModuleNamespace("booking", { en: booking.en });
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");
    expect(engine.i18n.t("booking:table.empty")).toBe("No bookings yet");

    engine.registerModuleNamespace("booking", { de: booking.de });
    await engine.changeLanguage("de");
    expect(engine.i18n.t("booking:header.title")).toBe("Reservierungen");
    expect(engine.i18n.t("booking:table.empty")).toBe("Noch keine Buchungen");
  });

  it("overrides applied before setup go to the language setup picks", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Termine" } });
    await engine.setupI18n({ storageAdapter: new MemoryStorage("de") });
    expect(engine.i18n.t("booking:header.title")).toBe("Termine");
    expect(engine.i18n.t("booking:header.title", { lng: "en" })).toBe("Bookings");
  });

  it("applies to the active language only; other languages keep their words", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Reservations" } });
    await engine.changeLanguage("de");
    expect(engine.i18n.t("booking:header.title")).toBe("Buchungen");
    await engine.changeLanguage("en");
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");
  });

  it("re-renders components already on screen", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const module = defineEnterpriseModule({ translationNamespace: "booking" });
    renderInModule(engine, module, <Probe k="header.title" />);
    expect(screen.getByTestId("probe").textContent).toBe("Bookings");
    act(() => engine.applyTenantOverrides("booking", { header: { title: "Reservations" } }));
    expect(screen.getByTestId("probe").textContent).toBe("Reservations");
  });

  it("ignores __proto__, constructor and prototype keys and pollutes nothing", async () => {
    const { engine, warnings } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const body = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"header":{"prototype":"x","title":"Reservations"}}',
    );
    engine.applyTenantOverrides("booking", body);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");
    expect(engine.i18n.getResource("en", "booking", "header.prototype")).toBeUndefined();
    expect(engine.i18n.getResource("en", "booking", "constructor")).toBeUndefined();
    expect(warnings[0]?.message).toMatch(/__proto__, constructor, header\.prototype/);
  });

  it("does not change the caller's overrides object", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const overrides = { header: { title: "Reservations" } };
    engine.applyTenantOverrides("booking", overrides);
    engine.applyTenantOverrides("booking", { header: { subtitle: "For {{customer}}" } });
    expect(overrides).toEqual({ header: { title: "Reservations" } });
  });

  it("rejects a bad value with a clear error and applies nothing of the batch", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    expect(() =>
      engine.applyTenantOverrides("booking", {
        header: { title: "Reservations" },
        // @ts-expect-error: numbers are not words
        table: { empty: 0 },
      }),
    ).toThrow(/"table\.empty" must be a string or an object, got number/);
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    // @ts-expect-error: overrides must be an object
    expect(() => engine.applyTenantOverrides("booking", "Reservations")).toThrow(TypeError);
  });
});

describe("applyTenantConfig", () => {
  it("applies the tenant endpoint's body in one line and returns the namespace", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const body = { data: { namespace: "booking", overrides: { header: { title: "Visits" } } } };
    expect(engine.applyTenantConfig(body)).toBe("booking");
    expect(engine.i18n.t("booking:header.title")).toBe("Visits");
    expect(engine.i18n.t("booking:table.empty")).toBe("No bookings yet");
  });

  it("puts the words in the language the body states, when it states one", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const body = {
      data: { namespace: "booking", language: "de", overrides: { header: { title: "Termine" } } },
    };
    engine.applyTenantConfig(body);
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    expect(engine.i18n.t("booking:header.title", { lng: "de" })).toBe("Termine");
    expect(() =>
      engine.applyTenantConfig({ data: { ...body.data, language: "not a code" } }),
    ).toThrow(/not a language code/);
  });

  it("rejects a body of the wrong shape and changes nothing", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    for (const body of [
      null,
      { namespace: "booking", overrides: {} },
      { data: { namespace: "booking" } },
      { data: { namespace: 3, overrides: {} } },
      { data: { namespace: "booking", overrides: ["x"] } },
      { data: { namespace: "booking", overrides: {}, language: 7 } },
    ]) {
      expect(() => engine.applyTenantConfig(body)).toThrow(/expected a body of the form/);
    }
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
  });
});
