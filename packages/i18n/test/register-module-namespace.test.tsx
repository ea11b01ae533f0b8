import { act, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createI18nEngine, defineEnterpriseModule } from "../src/index.js";
import { booking, common, startEngine } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { Probe, renderInModule } from "./support/render.js";

const deepFreeze = <T,>(value: T): T => {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
};

describe("registerModuleNamespace", () => {
  it("registers at module scope before setup; setup makes it available", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("booking", booking);
    engine.registerModuleNamespace("common", common);
    await engine.setupI18n({ storageAdapter: new MemoryStorage("en") });
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    expect(engine.hasNamespace("booking")).toBe(true);
  });

  it("is idempotent: a second call changes nothing and re-renders nothing", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const counter = { renders: 0 };
    const module = defineEnterpriseModule({ translationNamespace: "booking" });
    renderInModule(engine, module, <Probe k="header.title" counter={counter} />);
    const rendersBefore = counter.renders;
    let added = 0;
    engine.i18n.store.on("added", () => added++);

    act(() => {
      engine.registerModuleNamespace("booking", {
        en: { header: { title: "Something else" } },
        de: { header: { title: "Etwas anderes" } },
      });
    });
    expect(added).toBe(0);
    expect(counter.renders).toBe(rendersBefore);
    expect(screen.getByTestId("probe").textContent).toBe("Bookings");
    await engine.changeLanguage("de");
    expect(engine.i18n.t("booking:header.title")).toBe("Buchungen");
  });

  it("adds languages registered later for the same namespace", async () => {
    const { engine } = await startEngine({ stored: "de" });
    engine.registerModuleNamespace("booking", { en: booking.en });
    // German is missing: i18next falls back to the default language.
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    engine.registerModuleNamespace("booking", { en: booking.en, de: booking.de });
    expect(engine.i18n.t("booking:header.title")).toBe("Buchungen");
  });

  it("lazily registered namespaces show in components already on screen", async () => {
    const { engine } = await startEngine({ stored: "en" });
    const module = defineEnterpriseModule({ translationNamespace: "reports" });
    renderInModule(engine, module, <Probe k="title" />);
    expect(screen.getByTestId("probe").textContent).toBe("title");
    act(() => engine.registerModuleNamespace("reports", { en: { title: "Reports" } }));
    expect(screen.getByTestId("probe").textContent).toBe("Reports");
  });

  it("never changes or keeps the caller's objects", async () => {
    const { engine } = await startEngine({ stored: "en" });
    const dictionaries = deepFreeze({ en: { header: { title: "Bookings", note: "Note" } } });
    const snapshot = JSON.stringify(dictionaries);
    // Frozen input: any write into it would throw in strict mode.
    engine.registerModuleNamespace("booking", dictionaries);
    engine.applyTenantOverrides("booking", { header: { title: "Reservations" } });
    expect(JSON.stringify(dictionaries)).toBe(snapshot);
    expect(engine.i18n.t("booking:header.title")).toBe("Reservations");

    const mutable = { en: { header: { title: "Bookings" } } };
    const other = createI18nEngine();
    other.registerModuleNamespace("booking", mutable);
    mutable.en.header.title = "changed afterwards";
    await other.setupI18n({ storageAdapter: new MemoryStorage("en") });
    expect(other.i18n.t("booking:header.title")).toBe("Bookings");
  });

  it("rejects bad input with a clear error and registers nothing of it", async () => {
    const { engine } = await startEngine({ stored: "en" });
    expect(() => engine.registerModuleNamespace("", { en: {} })).toThrow(
      /namespace "" must be letters/,
    );
    expect(() => engine.registerModuleNamespace("a:b", { en: {} })).toThrow(TypeError);
    expect(() =>
      // @ts-expect-error: a number is not a dictionary value
      engine.registerModuleNamespace("booking", { en: { title: "ok" }, de: { title: 3 } }),
    ).toThrow(/"de".*"title" must be a string or an object, got number/);
    expect(() => engine.registerModuleNamespace("booking", { "not a code": {} })).toThrow(
      /not a language code/,
    );
    // The valid English half of the failed call was not registered either.
    expect(engine.hasNamespace("booking")).toBe(false);
  });

  it("drops __proto__, constructor and prototype keys", async () => {
    const { engine, warnings } = await startEngine({ stored: "en" });
    const hostile = JSON.parse('{"en":{"__proto__":{"polluted":"yes"},"title":"Ok"}}');
    engine.registerModuleNamespace("booking", hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(engine.i18n.t("booking:title")).toBe("Ok");
    expect(warnings.map((w) => w.code)).toEqual(["unsafe-key-ignored"]);
  });
});

describe("registerModuleNamespace with replace (dev server hot reload)", () => {
  it("swaps the dictionaries, re-renders what is on screen and keeps tenant words on top", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", {
      header: { subtitle: "Tenant words for {{customer}}" },
    });
    const module = defineEnterpriseModule({ translationNamespace: "booking" });
    renderInModule(engine, module, <Probe k="header.title" />);
    expect(screen.getByTestId("probe").textContent).toBe("Bookings");

    act(() => {
      engine.registerModuleNamespace(
        "booking",
        { en: { header: { title: "Edited bookings", subtitle: "Edited for {{customer}}" } } },
        { replace: true },
      );
    });
    expect(screen.getByTestId("probe").textContent).toBe("Edited bookings");
    expect(engine.i18n.t("booking:header.subtitle", { customer: "ACME" })).toBe(
      "Tenant words for ACME",
    );
    // Languages the new call does not name are kept.
    await engine.changeLanguage("de");
    expect(engine.i18n.t("booking:header.title")).toBe("Buchungen");
  });

  it("drops keys the edited dictionary no longer has", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("reports", { en: { title: "Reports", old: "Old text" } });
    engine.registerModuleNamespace("reports", { en: { title: "Reports" } }, { replace: true });
    expect(engine.i18n.exists("reports:old")).toBe(false);
    expect(engine.i18n.t("reports:title")).toBe("Reports");
  });

  it("a bad replacement changes nothing", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("reports", { en: { title: "Reports" } });
    expect(() =>
      engine.registerModuleNamespace(
        "reports",
        { en: { title: "New" }, de: { title: 42 as never } },
        { replace: true },
      ),
    ).toThrow(/"title" must be a string/);
    expect(engine.i18n.t("reports:title")).toBe("Reports");
  });
});
