import { act, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createI18nEngine, defineEnterpriseModule } from "../src/index.js";
import { booking, deferred, startEngine } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { Probe, renderInModule } from "./support/render.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

/** An engine in English with the booking header on screen. */
const onScreen = async () => {
  const harness = await startEngine({ stored: "en" });
  harness.engine.registerModuleNamespace("booking", booking);
  renderInModule(harness.engine, bookingModule, <Probe k="header.title" />);
  const text = () => screen.getByTestId("probe").textContent;
  expect(text()).toBe("Bookings");
  return { ...harness, text };
};

describe("changeLanguage: the seed's state table", () => {
  it("without callback: the UI switches and the choice is stored, with no sync", async () => {
    const { engine, storage, text } = await onScreen();
    await act(() => engine.changeLanguage("de"));
    expect(text()).toBe("Buchungen");
    expect(engine.i18n.language).toBe("de");
    expect(storage.value).toBe("de");
  });

  it("with callback: new language shown and stored while the sync is pending; callback gets it", async () => {
    const { engine, storage, text } = await onScreen();
    const sync = deferred();
    const received: string[] = [];
    let change!: Promise<void>;
    await act(async () => {
      change = engine.changeLanguage("de", (lng) => {
        received.push(lng);
        return sync.promise;
      });
    });
    // Pending sync: already German on screen and in storage.
    expect(text()).toBe("Buchungen");
    expect(storage.value).toBe("de");
    expect(received).toEqual(["de"]);

    await act(async () => {
      sync.resolve();
      await change;
    });
    expect(text()).toBe("Buchungen");
    expect(storage.value).toBe("de");
  });

  it("callback rejects: UI and stored choice revert, and the caller can catch", async () => {
    const { engine, storage, text } = await onScreen();
    const failure = new Error("PATCH /v1/user/profile answered 503");
    let caught: unknown;
    await act(async () => {
      await engine
        .changeLanguage("de", async () => Promise.reject(failure))
        .catch((error) => {
          caught = error;
        });
    });
    expect(caught).toBe(failure);
    expect(text()).toBe("Bookings");
    expect(engine.i18n.language).toBe("en");
    expect(storage.value).toBe("en");
    expect(storage.writes).toEqual(["de", "en"]);
  });

  it("callback throws synchronously: same revert", async () => {
    const { engine, storage, text } = await onScreen();
    await act(async () => {
      await expect(
        engine.changeLanguage("de", () => {
          throw new Error("offline");
        }),
      ).rejects.toThrow("offline");
    });
    expect(text()).toBe("Bookings");
    expect(storage.value).toBe("en");
  });
});

/** Two overlapping changes, en → de → fr, each waiting on its own sync. */
const twoPendingChanges = async () => {
  const harness = await startEngine({ stored: "en", supportedLanguages: ["en", "de", "fr"] });
  const toGerman = deferred();
  const toFrench = deferred();
  const a = harness.engine.changeLanguage("de", () => toGerman.promise);
  const b = harness.engine.changeLanguage("fr", () => toFrench.promise);
  return { ...harness, a, b, toGerman, toFrench };
};

describe("changeLanguage: overlapping changes", () => {
  it("a late failure of an older change does not undo a newer choice", async () => {
    const { engine, storage } = await startEngine({ stored: "en" });
    const slow = deferred();
    const first = engine.changeLanguage("de", () => slow.promise);
    await engine.changeLanguage("en"); // the user picks again, no sync
    slow.reject(new Error("late failure"));
    await expect(first).rejects.toThrow("late failure");
    expect(engine.i18n.language).toBe("en");
    expect(storage.value).toBe("en");

    const slower = deferred();
    const third = engine.changeLanguage("de", () => slower.promise);
    const fourth = engine.changeLanguage("en", async () => {});
    await fourth;
    slower.reject(new Error("late failure"));
    await expect(third).rejects.toThrow();
    expect(engine.i18n.language).toBe("en");
    expect(storage.value).toBe("en");
  });

  it("when the newer change fails first, the older pending one is shown again, then reverts if it fails too", async () => {
    const { engine, storage, a, b, toGerman, toFrench } = await twoPendingChanges();
    expect(engine.i18n.language).toBe("fr");

    toFrench.reject(new Error("fr failed"));
    await expect(b).rejects.toThrow("fr failed");
    expect(engine.i18n.language).toBe("de");
    expect(storage.value).toBe("de");

    toGerman.reject(new Error("de failed"));
    await expect(a).rejects.toThrow("de failed");
    expect(engine.i18n.language).toBe("en");
    expect(storage.value).toBe("en");
  });

  it("a failed newer change goes back past an older one that already failed", async () => {
    const { engine, a, b, toGerman, toFrench } = await twoPendingChanges();
    toGerman.reject(new Error("de failed"));
    await expect(a).rejects.toThrow();
    expect(engine.i18n.language).toBe("fr"); // the newer choice stands for now
    toFrench.reject(new Error("fr failed"));
    await expect(b).rejects.toThrow();
    expect(engine.i18n.language).toBe("en"); // not "de", whose sync failed
  });

  it("when the older change succeeds and the newer fails, the older one is shown", async () => {
    const { engine, storage, a, b, toGerman, toFrench } = await twoPendingChanges();
    toGerman.resolve();
    await a;
    toFrench.reject(new Error("fr failed"));
    await expect(b).rejects.toThrow();
    expect(engine.i18n.language).toBe("de");
    expect(storage.value).toBe("de");
  });

  it("stored writes land in call order even when the adapter is slow", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", { en: { a: "a" }, de: { a: "b" } });
    const writes: string[] = [];
    let slowFirst = true;
    await engine.setupI18n({
      storageAdapter: {
        getLanguage: async () => "en",
        setLanguage: async (lng) => {
          if (slowFirst) {
            slowFirst = false;
            await new Promise((r) => setTimeout(r, 30));
          }
          writes.push(lng);
        },
      },
    });
    await Promise.all([engine.changeLanguage("de"), engine.changeLanguage("en")]);
    expect(writes).toEqual(["de", "en"]);
  });
});

describe("changeLanguage: errors", () => {
  it("rejects an unsupported language and changes nothing", async () => {
    const { engine, storage } = await startEngine({ stored: "en" });
    const called: string[] = [];
    await expect(engine.changeLanguage("fr", async (l) => void called.push(l))).rejects.toThrow(
      /"fr" is not a supported language \(en, de\)/,
    );
    await expect(engine.changeLanguage("")).rejects.toThrow(/not a language code/);
    expect(engine.i18n.language).toBe("en");
    expect(storage.writes).toEqual([]);
    expect(called).toEqual([]);
  });

  it("rejects before setup", async () => {
    const engine = createI18nEngine();
    await expect(engine.changeLanguage("de")).rejects.toThrow(/await setupI18n/);
  });

  it("keeps the new language on screen when only storing it fails, and warns", async () => {
    const { engine, storage, warnings } = await startEngine({ stored: "en" });
    storage.failWrites = new Error("quota exceeded");
    await engine.changeLanguage("de");
    expect(engine.i18n.language).toBe("de");
    expect(warnings.map((w) => w.code)).toEqual(["storage-write-failed"]);
    expect(warnings[0]?.cause).toBe(storage.failWrites);
  });

  it("uses the supported base language for a regional code and passes it to the callback", async () => {
    const { engine } = await startEngine({ stored: "en" });
    const received: string[] = [];
    await engine.changeLanguage("de-CH", async (lng) => void received.push(lng));
    expect(engine.i18n.language).toBe("de");
    expect(received).toEqual(["de"]);
  });
});

// The test harness' adapter must behave like the real one for these tests to mean anything.
it("MemoryStorage keeps what it is given", async () => {
  const storage = new MemoryStorage();
  await storage.setLanguage("de");
  expect(await storage.getLanguage()).toBe("de");
});
