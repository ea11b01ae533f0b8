import i18next, { type i18n as I18nInstance } from "i18next";
import type {
  DictionariesByLanguage,
  LanguageSyncCallback,
  SetupOptions,
  TenantOverrides,
} from "../types.js";
import {
  applyTenantConfig,
  applyTenantOverrides,
  type TenantOverrideOptions,
} from "./apply-tenant-overrides.js";
import { changeLanguage } from "./change-language.js";
import {
  type InContextKey,
  inContextKeysOf,
  setInContextMode,
  stripInContextMarks,
} from "./in-context.js";
import { type RegisterOptions, registerModuleNamespace } from "./register-module-namespace.js";
import { setupI18n } from "./setup.js";
import { type EngineState, firstTime, warn } from "./state.js";

/** One engine: an i18next instance plus the registry, the tenant overrides and the language state. */
export interface I18nEngine {
  /** The raw i18next instance, for code outside React: `i18n.t("booking:header.title")`. */
  readonly i18n: I18nInstance;
  setupI18n(options: SetupOptions): Promise<I18nInstance>;
  registerModuleNamespace(
    namespace: string,
    dictionaries: DictionariesByLanguage,
    options?: RegisterOptions,
  ): void;
  applyTenantOverrides(
    namespace: string,
    overrides: TenantOverrides,
    options?: TenantOverrideOptions,
  ): void;
  /** Applies the tenant endpoint's body `{ data: { namespace, overrides } }`; returns the namespace. */
  applyTenantConfig(body: unknown, options?: TenantOverrideOptions): string;
  changeLanguage(language: string, callback?: LanguageSyncCallback): Promise<void>;
  /**
   * In-context mode (off by default): while on, each string `t()` returns carries an invisible
   * mark of its namespace and key. Mounted components re-render.
   */
  setInContextMode(on: boolean): void;
  /** Whether the in-context mode is on. */
  readonly inContextMode: boolean;
  /** The namespaces and keys whose marks a rendered text carries (empty without marks). */
  inContextKeysOf(text: string): InContextKey[];
  /** The text without in-context marks. */
  stripInContextMarks(text: string): string;
  /** Whether any dictionary is registered under the namespace. */
  hasNamespace(namespace: string): boolean;
  /** Development checks on (the `development` setup option). */
  readonly development: boolean;
  /**
   * Reports a development problem through the `onWarning` hook, once per `id`.
   * Used by the React binding for module namespace mismatches.
   */
  reportOnce(id: string, message: string): void;
}

export interface CreateEngineOptions {
  /** The i18next instance to drive. Default: a new one from `i18next.createInstance()`. */
  instance?: I18nInstance;
}

/**
 * Creates an independent engine. The package's top-level operations use one created at import
 * (on i18next's default instance); tests and embedded apps create their own.
 */
export const createI18nEngine = (options: CreateEngineOptions = {}): I18nEngine => {
  const state: EngineState = {
    i18n: options.instance ?? i18next.createInstance(),
    registered: new Map(),
    overrides: new Map(),
    languages: [],
    storageWrites: Promise.resolve(),
    reported: new Set(),
    inContext: { on: false, keys: [], ids: new Map() },
  };
  return {
    i18n: state.i18n,
    setupI18n: (setupOptions) => setupI18n(state, setupOptions),
    registerModuleNamespace: (ns, dictionaries, opts) =>
      registerModuleNamespace(state, ns, dictionaries, opts),
    applyTenantOverrides: (ns, overrides, opts) => applyTenantOverrides(state, ns, overrides, opts),
    applyTenantConfig: (body, opts) => applyTenantConfig(state, body, opts),
    changeLanguage: (lng, callback) => changeLanguage(state, lng, callback),
    setInContextMode: (on) => setInContextMode(state, on),
    get inContextMode() {
      return state.inContext.on;
    },
    inContextKeysOf: (text) => inContextKeysOf(state, text),
    stripInContextMarks,
    hasNamespace: (ns) => state.registered.has(ns),
    get development() {
      return state.options?.development === true;
    },
    reportOnce: (id, message) => {
      if (firstTime(state, id)) warn(state, "namespace-not-registered", message);
    },
  };
};
