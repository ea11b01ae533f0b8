import { act, render, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { defineEnterpriseModule } from "../src/index.js";
import {
  EnterpriseModuleProvider,
  I18nEngineProvider,
  useEnterpriseModuleTranslationContext,
} from "../src/react/index.js";
import { booking, startEngine } from "./support/fixtures.js";
import { renderInModule } from "./support/render.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking", name: "Bookings" });

const Header = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
  return (
    <>
      <h1>{t("header.title")}</h1>
      <p>{t("table.guests", { count: 2 })}</p>
      <button type="button">{t("common:actions.cancel")}</button>
      <span>{t("common:greeting", { name: "Ada" })}</span>
    </>
  );
};

const Title = () => {
  const { t } = useEnterpriseModuleTranslationContext<string>();
  return <h2>{t("header.title" as never)}</h2>;
};

class Catch extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <output>{this.state.error.message}</output> : this.props.children;
  }
}

describe("useEnterpriseModuleTranslationContext", () => {
  it("scopes t to the module namespace; common keys are written common:key", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    renderInModule(engine, bookingModule, <Header />);
    expect(screen.getByRole("heading").textContent).toBe("Bookings");
    expect(screen.getByText("2 guests")).toBeTruthy();
    expect(screen.getByRole("button").textContent).toBe("Cancel");
    expect(screen.getByText("Hello, Ada")).toBeTruthy();
  });

  it("re-renders in the new language when the language changes", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    renderInModule(engine, bookingModule, <Header />);
    await act(() => engine.changeLanguage("de"));
    expect(screen.getByRole("heading").textContent).toBe("Buchungen");
    expect(screen.getByRole("button").textContent).toBe("Abbrechen");
  });

  it("nested modules each see their own namespace", async () => {
    const { engine } = await startEngine({ stored: "en" });
    engine.registerModuleNamespace("booking", booking);
    engine.registerModuleNamespace("billing", { en: { header: { title: "Invoices" } } });
    const billing = defineEnterpriseModule({ translationNamespace: "billing" });
    render(
      <I18nEngineProvider engine={engine}>
        <EnterpriseModuleProvider module={bookingModule}>
          <Title />
          <EnterpriseModuleProvider module={billing}>
            <Title />
          </EnterpriseModuleProvider>
        </EnterpriseModuleProvider>
      </I18nEngineProvider>,
    );
    expect(screen.getAllByRole("heading").map((h) => h.textContent)).toEqual([
      "Bookings",
      "Invoices",
    ]);
  });

  it("outside a module provider, fails with a message saying what to do", async () => {
    const { engine } = await startEngine({ stored: "en" });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    render(
      <I18nEngineProvider engine={engine}>
        <Catch>
          <Header />
        </Catch>
      </I18nEngineProvider>,
    );
    quiet.mockRestore();
    expect(screen.getByRole("status").textContent).toMatch(
      /must be called inside <EnterpriseModuleProvider/,
    );
  });

  it("in development, reports once a module namespace that has no registered dictionary", async () => {
    const { engine, warnings } = await startEngine({ stored: "en", development: true });
    engine.registerModuleNamespace("booking", booking);
    const typo = defineEnterpriseModule({ translationNamespace: "bookings", name: "Bookings" });
    const tree = (
      <I18nEngineProvider engine={engine}>
        <EnterpriseModuleProvider module={typo}>
          <span>child</span>
        </EnterpriseModuleProvider>
        <EnterpriseModuleProvider module={bookingModule}>
          <span>child</span>
        </EnterpriseModuleProvider>
      </I18nEngineProvider>
    );
    const { rerender } = render(tree);
    rerender(tree);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "namespace-not-registered" });
    expect(warnings[0]?.message).toMatch(
      /module "Bookings" has translationNamespace "bookings", but no dictionary is registered under "bookings"/,
    );
  });

  it("outside development, says nothing about unregistered namespaces", async () => {
    const { engine, warnings } = await startEngine({ stored: "en" });
    const typo = defineEnterpriseModule({ translationNamespace: "bookings" });
    render(
      <I18nEngineProvider engine={engine}>
        <EnterpriseModuleProvider module={typo}>
          <span>child</span>
        </EnterpriseModuleProvider>
      </I18nEngineProvider>,
    );
    expect(warnings).toEqual([]);
  });
});

describe("defineEnterpriseModule", () => {
  it("rejects a namespace that cannot be registered", () => {
    expect(() => defineEnterpriseModule({ translationNamespace: "" })).toThrow(TypeError);
    expect(() => defineEnterpriseModule({ translationNamespace: "booking:x" })).toThrow(TypeError);
  });

  it("keeps the module's other settings", () => {
    const module = defineEnterpriseModule({
      translationNamespace: "booking",
      routes: ["/bookings"],
    });
    expect(module.routes).toEqual(["/bookings"]);
  });

  it("returns a frozen copy", () => {
    const config = { translationNamespace: "booking" };
    const module = defineEnterpriseModule(config);
    expect(module).not.toBe(config);
    expect(Object.isFrozen(module)).toBe(true);
  });
});
