/**
 * @orderline/i18n: the engine's core. Imports no React; the hook and the module provider are in
 * `@orderline/i18n/react`.
 *
 * The operations below act on one engine created at import, driving i18next's default instance,
 * so the whole application (and any library using `i18next` directly) shares one language.
 */
import i18next from "i18next";
import { createI18nEngine } from "./engine/create-engine.js";

export {
  type CachedTenantWords,
  createTenantWordsCache,
  type KeyValueStorage,
  type TenantWordsCache,
  type TenantWordsCacheOptions,
  tenantWordsKey,
} from "./cache/tenant-words-cache.js";
export type {
  TenantOverrideOptions,
  TenantOverrideResponse,
} from "./engine/apply-tenant-overrides.js";
export {
  type CreateEngineOptions,
  createI18nEngine,
  type I18nEngine,
} from "./engine/create-engine.js";
export type { InContextKey } from "./engine/in-context.js";
export type { RegisterOptions } from "./engine/register-module-namespace.js";
export { COMMON_NAMESPACE } from "./engine/setup.js";
export {
  defineEnterpriseModule,
  type EnterpriseModuleConfig,
} from "./module/define-enterprise-module.js";
export type {
  DictionariesByLanguage,
  Dictionary,
  EngineWarning,
  I18nextPlugin,
  LanguageSyncCallback,
  MissingKey,
  SetupOptions,
  StorageAdapter,
  TenantOverrides,
} from "./types.js";

/** The application's engine. */
export const defaultEngine = createI18nEngine({ instance: i18next });

/** The raw i18next instance for code outside React: `i18n.t("booking:header.title")`. */
export const i18n = defaultEngine.i18n;
/** Reads the stored language and initialises the engine; await it before the UI mounts. */
export const setupI18n = defaultEngine.setupI18n;
/** Registers a feature's dictionaries under its namespace; idempotent, safe at module scope. */
export const registerModuleNamespace = defaultEngine.registerModuleNamespace;
/** Deep-merges a tenant's vocabulary into a namespace; only the given keys change. */
export const applyTenantOverrides = defaultEngine.applyTenantOverrides;
/** Applies the tenant endpoint's body `{ data: { namespace, overrides } }` in one line. */
export const applyTenantConfig = defaultEngine.applyTenantConfig;
/** In-context mode: marks every translated string with its namespace and key (opt-in). */
export const setInContextMode = defaultEngine.setInContextMode;
/** The namespaces and keys whose in-context marks a rendered text carries. */
export const inContextKeysOf = defaultEngine.inContextKeysOf;
/** The text without in-context marks. */
export const stripInContextMarks = defaultEngine.stripInContextMarks;
/** Switches the language at once; with a sync callback, reverts if the callback fails. */
export const changeLanguage = defaultEngine.changeLanguage;
