import { act, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { createI18nEngine, defineEnterpriseModule } from "../src/index.js";
import { useEnterpriseModuleTranslationContext } from "../src/react/index.js";
import { booking, common, startEngine } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";
import { Probe, renderInModule } from "./support/render.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

describe("in-context mode", () => {
  it("is off by default: t() returns the plain text", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    expect(engine.inContextMode).toBe(false);
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    expect(engine.inContextKeysOf("Bookings")).toEqual([]);
  });

  it("marks each translated string invisibly with its namespace and exact key", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.setInContextMode(true);
    const title = engine.i18n.t("booking:header.title");
    expect(title).not.toBe("Bookings");
    expect(engine.stripInContextMarks(title)).toBe("Bookings");
    expect(engine.inContextKeysOf(title)).toEqual([{ namespace: "booking", key: "header.title" }]);
    // Plurals name the form that was used; the default namespace is found without a prefix.
    const guests = engine.i18n.t("booking:table.guests", { count: 3 });
    expect(engine.stripInContextMarks(guests)).toBe("3 guests");
    expect(engine.inContextKeysOf(guests)).toEqual([
      { namespace: "booking", key: "table.guests_other" },
    ]);
    expect(engine.inContextKeysOf(engine.i18n.t("greeting", { name: "Ada" }))).toEqual([
      { namespace: "common", key: "greeting" },
    ]);
  });

  it("finds every key in a text made of several translated strings, each once", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.setInContextMode(true);
    const a = engine.i18n.t("booking:header.title");
    const b = engine.i18n.t("booking:actions.create");
    expect(engine.inContextKeysOf(`${a} · ${b} · ${a}`)).toEqual([
      { namespace: "booking", key: "header.title" },
      { namespace: "booking", key: "actions.create" },
    ]);
    expect(engine.stripInContextMarks(`${a} · ${b}`)).toBe("Bookings · New booking");
  });

  it("marks the tenant's word too, and a text the user typed with marks of nothing resolves to nothing", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Visits" } });
    engine.setInContextMode(true);
    const title = engine.i18n.t("booking:header.title");
    expect(engine.stripInContextMarks(title)).toBe("Visits");
    expect(engine.inContextKeysOf(title)).toEqual([{ namespace: "booking", key: "header.title" }]);
    // A mark whose index this engine never gave out (pasted from elsewhere) names nothing.
    expect(engine.inContextKeysOf("x\u2063\u200d\u200d\u200d\u200d\u200d\u200d\u200d")).toEqual([]);
  });

  it("turned off, t() is plain again, and the app's own post-processors stay", async () => {
    const { engine } = await startEngine({ stored: "en", i18next: { postProcess: ["shout"] } });
    engine.i18n.use({
      type: "postProcessor",
      name: "shout",
      process: (value: string) => value.toUpperCase(),
    });
    engine.registerModuleNamespace("booking", booking);
    engine.setInContextMode(true);
    expect(engine.stripInContextMarks(engine.i18n.t("booking:header.title"))).toBe("BOOKINGS");
    engine.setInContextMode(false);
    expect(engine.inContextMode).toBe(false);
    expect(engine.i18n.t("booking:header.title")).toBe("BOOKINGS");
  });

  it("may be turned on before setup", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    engine.setInContextMode(true);
    await engine.setupI18n({ storageAdapter: new MemoryStorage("de") });
    const text = engine.i18n.t("actions.save");
    expect(engine.inContextKeysOf(text)).toEqual([{ namespace: "common", key: "actions.save" }]);
    expect(engine.stripInContextMarks(text)).toBe("Speichern");
  });

  it("re-renders mounted components when turned on and off; a click on rendered text finds its key", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    const clicked: string[] = [];
    const Page = () => {
      const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
      const [, rerender] = useState(0);
      return (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a test page
        <div
          onClick={(event) => {
            const keys = engine.inContextKeysOf((event.target as HTMLElement).textContent ?? "");
            clicked.push(...keys.map((k) => `${k.namespace}:${k.key}`));
            rerender((n) => n + 1);
          }}
        >
          <h1>{t("header.title")}</h1>
          <button type="button">{t("common:actions.save")}</button>
        </div>
      );
    };
    renderInModule(engine, bookingModule, <Page />);
    const heading = screen.getByRole("heading");
    expect(heading.textContent).toBe("Bookings");
    act(() => engine.setInContextMode(true));
    expect(heading.textContent).not.toBe("Bookings");
    // What the user reads and what assistive technology is given stays the same text.
    expect(engine.stripInContextMarks(heading.textContent ?? "")).toBe("Bookings");
    fireEvent.click(heading);
    fireEvent.click(screen.getByRole("button"));
    expect(clicked).toEqual(["booking:header.title", "common:actions.save"]);
    act(() => engine.setInContextMode(false));
    expect(heading.textContent).toBe("Bookings");
  });
});

describe("re-applying tenant overrides at run time (replace)", () => {
  it("replaces the earlier words of the namespace and language: keys left out go back to standard", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", {
      header: { title: "Visits" },
      actions: { create: "New visit" },
    });
    engine.applyTenantOverrides(
      "booking",
      { header: { title: "Appointments" } },
      { replace: true },
    );
    expect(engine.i18n.t("booking:header.title")).toBe("Appointments");
    expect(engine.i18n.t("booking:actions.create")).toBe("New booking");
    engine.applyTenantOverrides("booking", {}, { replace: true });
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
  });

  it("leaves other languages and namespaces alone", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Termine" } }, { lng: "de" });
    engine.applyTenantOverrides("common", { actions: { save: "Keep" } });
    engine.applyTenantOverrides("booking", { header: { title: "Visits" } }, { replace: true });
    expect(engine.i18n.t("booking:header.title", { lng: "de" })).toBe("Termine");
    expect(engine.i18n.t("actions.save")).toBe("Keep");
    expect(engine.i18n.t("booking:header.title")).toBe("Visits");
  });

  it("applyTenantConfig takes the option too, for a refetched body", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantConfig({
      data: { namespace: "booking", language: "en", overrides: { header: { title: "Visits" } } },
    });
    engine.applyTenantConfig(
      { data: { namespace: "booking", language: "en", overrides: { table: { empty: "None" } } } },
      { replace: true },
    );
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    expect(engine.i18n.t("booking:table.empty")).toBe("None");
  });

  it("re-renders mounted components without a reload, and a bad batch changes nothing", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Visits" } });
    renderInModule(engine, bookingModule, <Probe k="header.title" />);
    expect(screen.getByTestId("probe").textContent).toBe("Visits");
    act(() => engine.applyTenantOverrides("booking", {}, { replace: true }));
    expect(screen.getByTestId("probe").textContent).toBe("Bookings");
    act(() =>
      engine.applyTenantOverrides("booking", { header: { title: "Slots" } }, { replace: true }),
    );
    expect(screen.getByTestId("probe").textContent).toBe("Slots");
    expect(() =>
      // @ts-expect-error: numbers are not words
      engine.applyTenantOverrides("booking", { header: { title: 1 } }, { replace: true }),
    ).toThrow(TypeError);
    expect(screen.getByTestId("probe").textContent).toBe("Slots");
  });

  it("before setup, a replacement is what setup applies", async () => {
    const engine = createI18nEngine();
    engine.registerModuleNamespace("common", common);
    engine.registerModuleNamespace("booking", booking);
    engine.applyTenantOverrides("booking", { header: { title: "Visits" } });
    engine.applyTenantOverrides("booking", { table: { empty: "None" } }, { replace: true });
    await engine.setupI18n({ storageAdapter: new MemoryStorage("en") });
    expect(engine.i18n.t("booking:header.title")).toBe("Bookings");
    expect(engine.i18n.t("booking:table.empty")).toBe("None");
  });
});
