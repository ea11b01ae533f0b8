import type { i18n as I18nInstance } from "i18next";
import { mergeDictionary } from "../lib/dictionary.js";
import { assertLanguageCode, matchSupportedLanguage } from "../lib/language.js";
import type { I18nextPlugin, MissingKey, SetupOptions } from "../types.js";
import { setInContextMode } from "./in-context.js";
import { type EngineState, firstTime, log, publish, warn } from "./state.js";

export const COMMON_NAMESPACE = "common";

/**
 * Reads the preferred language through the adapter, then initialises i18next with every
 * dictionary registered so far. Resolves once the first render can be fully translated.
 * A second call returns the first call's promise; a failed one may be retried.
 */
export const setupI18n = (state: EngineState, options: SetupOptions): Promise<I18nInstance> => {
  state.setup ??= initialise(state, options).catch((error) => {
    state.setup = undefined;
    throw error;
  });
  return state.setup;
};

const initialise = async (state: EngineState, options: SetupOptions): Promise<I18nInstance> => {
  const storage = options?.storageAdapter;
  if (typeof storage?.getLanguage !== "function" || typeof storage.setLanguage !== "function") {
    throw new TypeError("setupI18n: storageAdapter needs getLanguage() and setLanguage(lng)");
  }
  const defaultLanguage = assertLanguageCode(options.defaultLanguage ?? "en", "setupI18n");
  const languages = [defaultLanguage];
  for (const lng of options.supportedLanguages ?? registeredLanguages(state)) {
    if (!languages.includes(assertLanguageCode(lng, "setupI18n"))) languages.push(lng);
  }
  state.options = options;
  state.languages = languages;

  let stored: string | null = null;
  try {
    stored = await storage.getLanguage();
  } catch (cause) {
    warn(state, "storage-read-failed", "could not read the stored language", cause);
  }
  const plugins = options.plugins ?? [];
  for (const plugin of plugins) state.i18n.use(plugin);
  const storedLanguage = matchSupportedLanguage(stored, languages);
  // A language detector is asked only when nothing usable is stored: the user's choice wins.
  const detect = storedLanguage === undefined && plugins.some(isLanguageDetector);
  const backend = plugins.some((plugin) => pluginType(plugin) === "backend");

  const { development, onMissingKey = logMissingKey } = options;
  await state.i18n.init({
    fallbackLng: defaultLanguage,
    // Dictionaries are added below; `resources` tells i18next not to wait for a backend, unless
    // the application gave one for the namespaces it did not register.
    partialBundledLanguages: backend,
    resources: {},
    ...options.i18next,
    ...(detect ? {} : { lng: storedLanguage ?? defaultLanguage }),
    supportedLngs: languages,
    defaultNS: COMMON_NAMESPACE,
    // React escapes what it renders; escaping here too would show "&amp;" on screen.
    interpolation: { escapeValue: false, ...options.i18next?.interpolation },
    saveMissing: development,
    saveMissingTo: "current",
    missingKeyHandler:
      development &&
      ((lngs: readonly string[], namespace: string, key: string) => {
        const language = lngs[0] ?? state.i18n.language;
        if (firstTime(state, `${language}\u0000${namespace}\u0000${key}`)) {
          onMissingKey({ language, namespace, key });
        }
      }),
    // react-i18next re-renders on "languageChanged" by default; "added" makes mounted
    // components re-render when dictionaries or tenant overrides are added too. Everything is
    // in memory before the UI mounts: nothing to suspend for.
    react: { bindI18nStore: "added", useSuspense: false },
  });
  // A detector may answer anything; only a supported language is used.
  const lng = matchSupportedLanguage(state.i18n.language, languages) ?? defaultLanguage;
  if (state.i18n.language !== lng) await state.i18n.changeLanguage(lng);
  for (const byLanguage of state.overrides.values()) {
    const pending = byLanguage.get("");
    if (pending) byLanguage.set(lng, mergeDictionary(byLanguage.get(lng) ?? {}, pending));
    byLanguage.delete("");
  }
  // Overrides without a registered dictionary are published too: the tenant's words show,
  // other keys fall back to the default language.
  for (const store of [state.registered, state.overrides]) {
    for (const [ns, byLanguage] of store)
      for (const language of byLanguage.keys()) publish(state, ns, language);
  }
  if (state.inContext.on) setInContextMode(state, true);
  return state.i18n;
};

/** Every language with a dictionary registered so far, in any namespace, in registration order. */
const registeredLanguages = (state: EngineState): string[] => {
  const found = new Set<string>();
  for (const byLanguage of state.registered.values())
    for (const lng of byLanguage.keys()) found.add(lng);
  return [...found];
};

const pluginType = (plugin: I18nextPlugin): unknown =>
  (plugin as { type?: unknown } | undefined)?.type;

const isLanguageDetector = (plugin: I18nextPlugin): boolean =>
  pluginType(plugin) === "languageDetector";

const logMissingKey = (m: MissingKey): void =>
  log(`missing key "${m.namespace}:${m.key}" in "${m.language}"`);
