import {
  createTenantWordsCache,
  type Dictionary,
  registerModuleNamespace,
  setupI18n,
  type TenantWordsCache,
} from "@orderline/i18n";
import deActivity from "../locales/de/activity.json";
import deAuth from "../locales/de/auth.json";
import deCommon from "../locales/de/common.json";
import deIntegration from "../locales/de/integration.json";
import deOrders from "../locales/de/orders.json";
import dePartners from "../locales/de/partners.json";
import deProblems from "../locales/de/problems.json";
import deTeam from "../locales/de/team.json";
import deVocabulary from "../locales/de/vocabulary.json";
import deWebhooks from "../locales/de/webhooks.json";
import enActivity from "../locales/en/activity.json";
import enAuth from "../locales/en/auth.json";
import enCommon from "../locales/en/common.json";
import enIntegration from "../locales/en/integration.json";
import enOrders from "../locales/en/orders.json";
import enPartners from "../locales/en/partners.json";
import enProblems from "../locales/en/problems.json";
import enTeam from "../locales/en/team.json";
import enVocabulary from "../locales/en/vocabulary.json";
import enWebhooks from "../locales/en/webhooks.json";
import idActivity from "../locales/id/activity.json";
import idAuth from "../locales/id/auth.json";
import idCommon from "../locales/id/common.json";
import idIntegration from "../locales/id/integration.json";
import idOrders from "../locales/id/orders.json";
import idPartners from "../locales/id/partners.json";
import idProblems from "../locales/id/problems.json";
import idTeam from "../locales/id/team.json";
import idVocabulary from "../locales/id/vocabulary.json";
import idWebhooks from "../locales/id/webhooks.json";
import { browserLanguage } from "./lib/browser-language.js";

/** The console's languages, each named in itself (a language list is read by those who speak it). */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "id", name: "Bahasa Indonesia" },
  { code: "de", name: "Deutsch" },
] as const;

export const languageName = (code: string): string =>
  LANGUAGES.find((l) => l.code === code)?.name ?? code;

/** The console's standard words: every namespace, per language, as shipped with this build. */
export const DICTIONARIES: Record<string, Record<string, Dictionary>> = {
  common: { en: enCommon, id: idCommon, de: deCommon },
  auth: { en: enAuth, id: idAuth, de: deAuth },
  orders: { en: enOrders, id: idOrders, de: deOrders },
  partners: { en: enPartners, id: idPartners, de: dePartners },
  integration: { en: enIntegration, id: idIntegration, de: deIntegration },
  vocabulary: { en: enVocabulary, id: idVocabulary, de: deVocabulary },
  webhooks: { en: enWebhooks, id: idWebhooks, de: deWebhooks },
  problems: { en: enProblems, id: idProblems, de: deProblems },
  team: { en: enTeam, id: idTeam, de: deTeam },
  activity: { en: enActivity, id: idActivity, de: deActivity },
};

/** Every namespace the console registers; the tenant may rename words in each. */
export const NAMESPACES = Object.keys(DICTIONARIES);

// A dev server re-runs this module when a dictionary file changes: replace, so the edit shows.
const replace = import.meta.hot !== undefined;
for (const [namespace, byLanguage] of Object.entries(DICTIONARIES)) {
  registerModuleNamespace(namespace, byLanguage, { replace });
}

const LANGUAGE_KEY = "orderline-console:language";

/**
 * Reads the chosen language from localStorage, and until someone chooses one, the browser's
 * (a first visit from an Indonesian or German browser is not greeted in English); resolves
 * before the first render.
 */
export const startI18n = () =>
  setupI18n({
    storageAdapter: {
      getLanguage: async () =>
        localStorage.getItem(LANGUAGE_KEY) ??
        browserLanguage(
          navigator.languages,
          LANGUAGES.map((l) => l.code),
        ),
      setLanguage: async (lng) => localStorage.setItem(LANGUAGE_KEY, lng),
    },
    defaultLanguage: "en",
    development: import.meta.env.DEV,
  });

/** The tenant's words cached per tenant and build, so a reload paints them with the first frame. */
export const tenantWordsCache = (tenant: string): TenantWordsCache =>
  createTenantWordsCache({ storage: localStorage, tenant, version: __CONSOLE_BUILD__ });
