import { describe, expect, it } from "vitest";
import { booking, startEngine } from "./support/fixtures.js";

describe("the raw i18n instance, for code outside React", () => {
  it("needs a namespace prefix except for common, the default namespace", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const { i18n } = engine;
    expect(i18n.t("booking:header.title")).toBe("Bookings");
    expect(i18n.t("actions.save")).toBe("Save");
    expect(i18n.t("common:actions.save")).toBe("Save");
    // Without the prefix a booking key is looked up in common, and not found.
    expect(i18n.t("header.title")).toBe("header.title");
  });

  it("returns defaultValue for a missing key", async () => {
    const { engine } = await startEngine({ stored: "en" });
    expect(engine.i18n.t("booking:nothing.here", { defaultValue: "Fallback text" })).toBe(
      "Fallback text",
    );
  });

  it("fills {{name}} and {{count}} and picks plural forms per language", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const { i18n } = engine;
    expect(i18n.t("greeting", { name: "Ada" })).toBe("Hello, Ada");
    expect(i18n.t("itemCount", { count: 1 })).toBe("1 item");
    expect(i18n.t("itemCount", { count: 5 })).toBe("5 items");
    expect(i18n.t("booking:table.guests", { count: 2 })).toBe("2 guests");
    await engine.changeLanguage("de");
    expect(i18n.t("booking:table.guests", { count: 1 })).toBe("1 Gast");
    expect(i18n.t("booking:table.guests", { count: 3 })).toBe("3 Gäste");
  });

  it("does not HTML-escape interpolated values (React escapes what it renders)", async () => {
    const { engine } = await startEngine({ stored: "en" });
    expect(engine.i18n.t("greeting", { name: "Tom & Jerry" })).toBe("Hello, Tom & Jerry");
  });

  it("falls back to the default language for a key missing in the active one", async () => {
    const { engine } = await startEngine({ stored: "de" });
    engine.registerModuleNamespace("booking", { en: { onlyEnglish: "Only in English" }, de: {} });
    expect(engine.i18n.t("booking:onlyEnglish")).toBe("Only in English");
  });
});

describe("missing keys in development", () => {
  it("are reported once each through onMissingKey", async () => {
    const { engine, missing } = await startEngine({ stored: "en", development: true });
    engine.i18n.t("nope.one");
    engine.i18n.t("nope.one");
    engine.i18n.t("booking:nope.two", { defaultValue: "x" });
    engine.i18n.t("actions.save");
    await engine.changeLanguage("de");
    engine.i18n.t("nope.one");
    expect(missing).toEqual([
      { language: "en", namespace: "common", key: "nope.one" },
      { language: "en", namespace: "booking", key: "nope.two" },
      { language: "de", namespace: "common", key: "nope.one" },
    ]);
  });

  it("are not reported outside development", async () => {
    const { engine, missing } = await startEngine({ stored: "en" });
    engine.i18n.t("nope.one");
    expect(missing).toEqual([]);
  });
});
