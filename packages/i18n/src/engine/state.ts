import type { i18n as I18nInstance } from "i18next";
import { mergeDictionary } from "../lib/dictionary.js";
import type { Dictionary, EngineWarning, InContextKey, SetupOptions } from "../types.js";

/** One optimistic language change: what a revert needs to know about it. */
export interface LanguageChange {
  /** The language on screen when this change began. */
  readonly previous: string;
  /**
   * The change that was on screen when this one began. Cut once this change is synced (a revert
   * stops at a change that has not failed anyway), so the chain does not grow.
   */
  parent: LanguageChange | undefined;
  /** Its sync failed: a revert goes past it to the language before it. */
  failed: boolean;
}

/** Dictionaries per namespace per language. */
type DictionaryStore = Map<string, Map<string, Dictionary>>;

/** Everything one engine owns; each operation is a function of this state. */
export interface EngineState {
  readonly i18n: I18nInstance;
  /** Dictionaries as registered (cleaned copies). */
  readonly registered: DictionaryStore;
  /**
   * Tenant overrides; re-applied on every later registration. Language "" holds overrides
   * applied before setup without a language, until setup picks one.
   */
  readonly overrides: DictionaryStore;
  /** The options of the setup that succeeded or is under way. */
  options?: SetupOptions;
  /** The languages the interface can switch to, the default language first. */
  languages: readonly string[];
  setup?: Promise<I18nInstance> | undefined;
  /** Pending writes of the chosen language, chained so they land in call order. */
  storageWrites: Promise<void>;
  /** The language change currently on screen, if any. */
  currentChange?: LanguageChange | undefined;
  /** Ids of the missing keys and namespaces already reported, so each is reported once. */
  readonly reported: Set<string>;
  /** The in-context mode: on or off, its post-processor's name, the keys marks point to. */
  readonly inContext: {
    on: boolean;
    name?: string;
    readonly keys: InContextKey[];
    readonly ids: Map<string, number>;
  };
}

/** The per-language map of a namespace, created on first use. */
export const languagesOf = (store: DictionaryStore, ns: string): Map<string, Dictionary> => {
  const found = store.get(ns);
  if (found) return found;
  const created = new Map<string, Dictionary>();
  store.set(ns, created);
  return created;
};

/** Hands i18next the dictionary of one namespace and language: as registered, plus overrides. */
export const publish = (state: EngineState, ns: string, lng: string): void => {
  const dictionary = mergeDictionary(
    state.registered.get(ns)?.get(lng) ?? {},
    state.overrides.get(ns)?.get(lng) ?? {},
  );
  // deep + overwrite: without both, i18next keeps the words it already has.
  state.i18n.addResourceBundle(lng, ns, dictionary, true, true);
};

/** True the first time it is called with an id, false after: for reports made once each. */
export const firstTime = (state: EngineState, id: string): boolean => {
  if (state.reported.has(id)) return false;
  state.reported.add(id);
  return true;
};

/** Writes to the console, for reports the application did not route elsewhere. */
export const log = (message: string, cause: unknown = ""): void => {
  console.warn(`[@orderline/i18n] ${message}`, cause);
};

export const warn = (
  state: EngineState,
  code: EngineWarning["code"],
  message: string,
  cause?: unknown,
): void => {
  const onWarning = state.options?.onWarning;
  if (onWarning) onWarning({ code, message, cause });
  else log(message, cause);
};

/**
 * Deep-merges a dictionary from outside into a copy of `base`, validating it on the way (see
 * `mergeDictionary`); unsafe keys are dropped with a warning naming them.
 */
export const mergeChecked = (
  state: EngineState,
  base: Dictionary,
  value: unknown,
  label: string,
): Dictionary => {
  const dropped: string[] = [];
  const dictionary = mergeDictionary(base, value, label, dropped);
  if (dropped.length > 0) {
    warn(state, "unsafe-key-ignored", `${label}: ignored unsafe keys ${dropped.join(", ")}`);
  }
  return dictionary;
};
