import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createI18nEngine, defineEnterpriseModule } from "../src/index.js";
import { useEnterpriseModuleTranslationContext } from "../src/react/index.js";
import { booking, common, startEngine } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { renderInModule } from "./support/render.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

const BookingHeader = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
  return (
    <header>
      <h1>{t("header.title")}</h1>
      <p>{t("header.subtitle", { customer: "ACME" })}</p>
      <button type="button">{t("common:actions.save")}</button>
    </header>
  );
};

describe("setupI18n", () => {
  it("resolves only when the first render is fully translated, in the stored language", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    engine.registerModuleNamespace("booking", booking);
    await engine.setupI18n({ storageAdapter: new MemoryStorage("de") });

    const { container } = renderInModule(engine, bookingModule, <BookingHeader />);
    // First render, no waiting: every text is already German, no key shows through.
    expect(screen.getByRole("heading").textContent).toBe("Buchungen");
    expect(screen.getByText("Einen Termin für ACME reservieren")).toBeTruthy();
    expect(screen.getByRole("button").textContent).toBe("Speichern");
    expect(container.textContent).not.toMatch(/header\.|actions\.|common:/);
  });

  it("uses the default language when nothing is stored, and stores nothing itself", async () => {
    const { engine, storage } = await startEngine({ stored: null, defaultLanguage: "en" });
    expect(engine.i18n.language).toBe("en");
    expect(engine.i18n.t("actions.save")).toBe("Save");
    expect(storage.writes).toEqual([]);
  });

  it("falls back to the default language when the stored one is not supported", async () => {
    const { engine } = await startEngine({ stored: "fr" });
    expect(engine.i18n.language).toBe("en");
  });

  it("falls back to the default language when the adapter returns something that is not a code", async () => {
    for (const garbage of ["", 42, { lng: "de" }, "de\u0000"]) {
      const { engine } = await startEngine({ stored: garbage as never });
      expect(engine.i18n.language).toBe("en");
    }
  });

  it("takes the base language of a regional code ('de-AT' → 'de')", async () => {
    const { engine } = await startEngine({ stored: "de-AT" });
    expect(engine.i18n.language).toBe("de");
  });

  it("falls back to the default language and warns when the adapter throws", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    const storage = new MemoryStorage("de");
    storage.failReads = new Error("storage is disabled");
    const warnings: string[] = [];
    await engine.setupI18n({
      storageAdapter: storage,
      defaultLanguage: "en",
      onWarning: (w) => warnings.push(w.code),
    });
    expect(engine.i18n.language).toBe("en");
    expect(engine.i18n.t("actions.cancel")).toBe("Cancel");
    expect(warnings).toEqual(["storage-read-failed"]);
  });

  it("supports only the languages it was told, plus the default", async () => {
    const { engine } = await startEngine({ stored: "de", supportedLanguages: ["en"] });
    expect(engine.i18n.language).toBe("en");
    await expect(engine.changeLanguage("de")).rejects.toThrow(RangeError);
  });

  it("rejects with a clear error when the storage adapter is missing or incomplete", async () => {
    const engine = createI18nEngine();
    // @ts-expect-error: the adapter is required
    await expect(engine.setupI18n({})).rejects.toThrow(/storageAdapter needs getLanguage/);
    await expect(
      // @ts-expect-error: setLanguage is missing
      engine.setupI18n({ storageAdapter: { getLanguage: async () => null } }),
    ).rejects.toThrow(TypeError);
    // A failed setup can be retried with good options.
    await engine.setupI18n({ storageAdapter: new MemoryStorage() });
    expect(engine.i18n.isInitialized).toBe(true);
  });

  it("returns the first setup when called again", async () => {
    const { engine, warnings } = await startEngine({ stored: "de" });
    const again = await engine.setupI18n({ storageAdapter: new MemoryStorage("en") });
    expect(again).toBe(engine.i18n);
    expect(engine.i18n.language).toBe("de");
    expect(warnings).toEqual([]);
  });
});
