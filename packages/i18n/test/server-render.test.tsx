// @vitest-environment node
import { renderToString } from "react-dom/server";
import { expect, it } from "vitest";
import { defineEnterpriseModule } from "../src/index.js";
import {
  EnterpriseModuleProvider,
  I18nEngineProvider,
  useEnterpriseModuleTranslationContext,
} from "../src/react/index.js";
import { booking, startEngine } from "./support/fixtures.js";

const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

const Header = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
  return (
    <h1>
      {t("header.title")} · {t("common:status.loading")}
    </h1>
  );
};

it("renders translated HTML on the server, with no DOM, in the stored language", async () => {
  const { engine } = await startEngine({ stored: "de" });
  engine.registerModuleNamespace("booking", booking);
  const html = renderToString(
    <I18nEngineProvider engine={engine}>
      <EnterpriseModuleProvider module={bookingModule}>
        <Header />
      </EnterpriseModuleProvider>
    </I18nEngineProvider>,
  );
  expect(typeof document).toBe("undefined");
  expect(html).toBe("<h1>Buchungen<!-- --> · <!-- -->Wird geladen…</h1>");
});
