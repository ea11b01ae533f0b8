import { render, screen } from "@testing-library/react";
import { Trans, useTranslation } from "react-i18next";
import { describe, expect, it } from "vitest";
import { I18nEngineProvider } from "../src/react/index.js";
import { booking, startEngine } from "./support/fixtures.js";

const PlainHook = () => {
  const { t } = useTranslation("booking");
  return <h1>{t("header.title")}</h1>;
};

describe("react-i18next's own API under an engine", () => {
  it("useTranslation() and <Trans> use the engine of the nearest I18nEngineProvider", async () => {
    const { engine } = await startEngine({ stored: "de" });
    engine.registerModuleNamespace("booking", booking);
    render(
      <I18nEngineProvider engine={engine}>
        <PlainHook />
        <p data-testid="trans">
          <Trans i18nKey="greeting" values={{ name: "Ada" }} />
        </p>
      </I18nEngineProvider>,
    );
    expect(screen.getByRole("heading").textContent).toBe("Buchungen");
    expect(screen.getByTestId("trans").textContent).toBe("Hallo, Ada");
  });
});
