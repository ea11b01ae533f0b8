import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import de from "../locales/de/webhooks.json";
import en from "../locales/en/webhooks.json";
import { disabledReasonText } from "../src/lib/disabled-reason.js";

const translate = async (language: string) => {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    resources: { en: { webhooks: en }, de: { webhooks: de } },
    interpolation: { escapeValue: false },
  });
  return i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
};

describe("why an endpoint is disabled, in the user's language", () => {
  it("says the gateway's two stored reasons again in German; anything else stays, marked English", async () => {
    const t = await translate("de");
    expect(disabledReasonText("Disabled by tenant admin ops@acme.example.", t)).toEqual({
      text: "Deaktiviert von der Mandanten-Administration ops@acme.example.",
    });
    expect(disabledReasonText("Disabled by the operator (admin CLI).", t).text).toBe(
      "Vom Betreiber des Gateways deaktiviert.",
    );
    expect(disabledReasonText("Disabled after 3 days of failed deliveries.", t).text).toMatch(
      /^Vom Gateway deaktiviert/,
    );
    expect(disabledReasonText("Something new.", t)).toEqual({ text: "Something new.", lang: "en" });
  });
});
