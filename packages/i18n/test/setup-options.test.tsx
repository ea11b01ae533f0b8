import type { BackendModule, LanguageDetectorModule, PostProcessorModule } from "i18next";
import { describe, expect, it } from "vitest";
import { createI18nEngine } from "../src/index.js";
import { booking, common } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";

const indonesianBooking = { header: { title: "Pemesanan", subtitle: "Pesan untuk {{customer}}" } };

describe("setupI18n: supported languages", () => {
  it("defaults to every language with a registered dictionary, not only common's", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", { en: common.en });
    engine.registerModuleNamespace("booking", { en: booking.en, id: indonesianBooking });
    await engine.setupI18n({ storageAdapter: new MemoryStorage("id") });
    // The stored Indonesian is kept: before, setup fell back to English.
    expect(engine.i18n.language).toBe("id");
    expect(engine.i18n.t("booking:header.title")).toBe("Pemesanan");
    // Keys Indonesian lacks fall back to the default language.
    expect(engine.i18n.t("actions.save")).toBe("Save");
    await engine.changeLanguage("en");
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
  });

  it("still refuses a language no dictionary and no list names", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    await engine.setupI18n({ storageAdapter: new MemoryStorage("fr") });
    expect(engine.i18n.language).toBe("en");
    await expect(engine.changeLanguage("fr")).rejects.toThrow(/not a supported language/);
  });
});

describe("setupI18n: i18next options and plugins", () => {
  it("passes plugins to i18next and options through, keeping the engine's contract", async () => {
    const shout: PostProcessorModule = {
      type: "postProcessor",
      name: "shout",
      process: (value: string) => value.toUpperCase(),
    };
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    await engine.setupI18n({
      storageAdapter: new MemoryStorage("de"),
      plugins: [shout],
      // The engine's own choices (lng, defaultNS) win over conflicting options.
      i18next: { postProcess: ["shout"], defaultNS: "other", lng: "en" },
    });
    expect(engine.i18n.language).toBe("de");
    expect(engine.i18n.t("actions.save")).toBe("SPEICHERN");
  });

  it("asks a language detector only when nothing usable is stored", async () => {
    const detector = (answer: string): LanguageDetectorModule => ({
      type: "languageDetector",
      detect: () => answer,
      cacheUserLanguage: () => {},
    });
    const detected = createI18nEngine();
    detected.registerModuleNamespace("common", common);
    await detected.setupI18n({
      storageAdapter: new MemoryStorage(null),
      plugins: [detector("de")],
    });
    expect(detected.i18n.language).toBe("de");

    const stored = createI18nEngine();
    stored.registerModuleNamespace("common", common);
    await stored.setupI18n({ storageAdapter: new MemoryStorage("en"), plugins: [detector("de")] });
    expect(stored.i18n.language).toBe("en");

    // A detector answering an unsupported language leaves the default language.
    const unsupported = createI18nEngine();
    unsupported.registerModuleNamespace("common", common);
    await unsupported.setupI18n({
      storageAdapter: new MemoryStorage(null),
      plugins: [detector("fr")],
    });
    expect(unsupported.i18n.language).toBe("en");
  });

  it("loads unregistered namespaces through a backend, for the active and fallback language only", async () => {
    const reads: string[] = [];
    const files: Record<string, Record<string, object>> = {
      en: { reports: { title: "Reports" } },
      de: { reports: { title: "Berichte" } },
    };
    const backend: BackendModule = {
      type: "backend",
      init: () => {},
      read: (lng, ns, callback) => {
        reads.push(`${lng}/${ns}`);
        callback(null, (files[lng]?.[ns] ?? {}) as never);
      },
    };
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", { ...common, id: { actions: { save: "Simpan" } } });
    await engine.setupI18n({
      storageAdapter: new MemoryStorage("id"),
      plugins: [backend],
      i18next: { ns: ["reports"], load: "currentOnly" },
    });
    // Indonesian has no reports file: the fallback language (loaded too) answers.
    expect(engine.i18n.t("reports:title")).toBe("Reports");
    expect(engine.i18n.t("actions.save")).toBe("Simpan");
    // Registered dictionaries are never fetched; German is not loaded until it is shown.
    expect(reads.sort()).toEqual(["en/reports", "id/reports"]);
    await engine.changeLanguage("de");
    expect(engine.i18n.t("reports:title")).toBe("Berichte");
    expect(reads).toContain("de/reports");
  });
});
