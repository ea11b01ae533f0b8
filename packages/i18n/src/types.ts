import type { InitOptions, i18n } from "i18next";

/** A dictionary: nested keys ending in string values, one per language per namespace. */
export interface Dictionary {
  [key: string]: string | Dictionary;
}

/** Dictionaries of one namespace, keyed by language code: `{ en: {...}, de: {...} }`. */
export type DictionariesByLanguage = Readonly<Record<string, Dictionary>>;

/** Tenant vocabulary: the dictionary's shape, holding only the keys to change. */
export type TenantOverrides = Dictionary;

/**
 * Where the chosen language is kept between sessions. Supplied by the application
 * (localStorage, a cookie, native storage): the engine touches no storage of its own.
 */
export interface StorageAdapter {
  /** Reads the stored preferred language; `null` when none was stored. */
  getLanguage(): Promise<string | null>;
  /** Persists the chosen language. */
  setLanguage(lng: string): Promise<void>;
}

/** A key `t()` could not find, reported once per language, namespace and key in development. */
export interface MissingKey {
  language: string;
  namespace: string;
  key: string;
}

/** Something the application should know about but that does not stop the engine. */
export interface EngineWarning {
  code:
    | "storage-read-failed"
    | "storage-write-failed"
    | "namespace-not-registered"
    | "unsafe-key-ignored";
  message: string;
  cause?: unknown;
}

export interface SetupOptions {
  /** Reads and stores the preferred language. */
  storageAdapter: StorageAdapter;
  /**
   * Used when the stored language is missing, unsupported or unreadable, and as the fallback
   * for keys missing in the active language. Default `"en"`.
   */
  defaultLanguage?: string;
  /**
   * Languages the interface can switch to. Default: every language with a dictionary registered
   * before setup in any namespace, plus `defaultLanguage`.
   */
  supportedLanguages?: readonly string[];
  /**
   * Development checks: missing keys and unregistered module namespaces are reported.
   * Default `false`; pass `import.meta.env.DEV` (Vite) or `process.env.NODE_ENV !== "production"`.
   */
  development?: boolean;
  /** Receives each missing key once (development only). Default: `console.warn`. */
  onMissingKey?: (missing: MissingKey) => void;
  /** Receives storage failures and development warnings. Default: `console.warn`. */
  onWarning?: (warning: EngineWarning) => void;
  /**
   * i18next plugins, passed to `i18n.use()` before initialisation: a language detector (asked
   * only when the storage adapter has no language), a backend (loads the dictionaries that were
   * not registered, for the active language only), post-processors, formatters.
   */
  plugins?: readonly I18nextPlugin[];
  /**
   * Further i18next options (`load`, `ns`, `backend`, `detection`, `returnEmptyString`, …).
   * The engine keeps the ones its contract rests on: `lng`, `supportedLngs`, `defaultNS`,
   * `saveMissing` and the missing-key handler, and `react` (see docs/i18n).
   */
  i18next?: InitOptions;
}

/** Anything `i18next.use()` takes: a backend, a language detector, a post-processor, … */
export type I18nextPlugin = Parameters<i18n["use"]>[0];

/** The application's own sync, e.g. `PATCH /v1/user/profile { language }`. */
export type LanguageSyncCallback = (lng: string) => Promise<unknown> | unknown;

/** A translated string's origin, as the in-context mode records it. */
export interface InContextKey {
  namespace: string;
  /** The key that was found, plural or context suffix included (`table.guests_other`). */
  key: string;
}
