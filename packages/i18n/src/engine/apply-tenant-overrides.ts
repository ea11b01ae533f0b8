import { isPlainObject } from "../lib/dictionary.js";
import { assertLanguageCode } from "../lib/language.js";
import { assertNamespace } from "../lib/namespace.js";
import type { TenantOverrides } from "../types.js";
import { type EngineState, languagesOf, mergeChecked, publish } from "./state.js";

export interface TenantOverrideOptions {
  /**
   * Language the overrides are written in. Default: the active language (the tenant endpoint
   * answers in the user's profile language); before setup, the language setup picks.
   */
  lng?: string;
  /**
   * The given overrides are the tenant's whole vocabulary of this namespace and language: they
   * replace earlier ones, so keys left out go back to the standard text. For words that changed
   * while the application runs (a vocabulary event, an edit). Default `false` (merge).
   */
  replace?: boolean;
}

/**
 * Deep-merges a tenant's vocabulary into a namespace: only the given keys change. Overrides are
 * kept per namespace and language, so they also win over dictionaries registered later.
 * Mounted components re-render. Unsafe keys (`__proto__`, `constructor`, `prototype`) are
 * dropped; any other bad value rejects the whole batch and changes nothing.
 */
export const applyTenantOverrides = (
  state: EngineState,
  namespace: string,
  overrides: TenantOverrides,
  options: TenantOverrideOptions = {},
): void => {
  const label = `applyTenantOverrides("${assertNamespace(namespace, "applyTenantOverrides")}")`;
  const { i18n } = state;
  // Before setup the active language is unknown: "" stands for "the language setup picks".
  const lng = options.lng ? assertLanguageCode(options.lng, label) : (i18n.language ?? "");
  const earlier = (!options.replace && state.overrides.get(namespace)?.get(lng)) || {};
  const merged = mergeChecked(state, earlier, overrides, label);
  languagesOf(state.overrides, namespace).set(lng, merged);
  if (!lng || !i18n.isInitialized) return;
  if (options.replace) {
    // i18next only merges: words the tenant took back would linger without a fresh bundle.
    i18n.removeResourceBundle(lng, namespace);
    publish(state, namespace, lng);
  } else {
    // Only the tenant's words (this batch and earlier ones) go to i18next, which deep-merges
    // them over the dictionary it holds (deep + overwrite).
    i18n.addResourceBundle(lng, namespace, merged, true, true);
  }
};

/** The tenant endpoint's body: `{ data: { namespace, overrides } }`, optionally with `language`. */
export interface TenantOverrideResponse {
  data: { namespace: string; overrides: TenantOverrides; language?: string };
}

/**
 * Applies the body of `GET /v1/tenant/i18n-config` as it arrives, after checking its shape.
 * When the body states the `language` its words are in, they go to that language (unless
 * `options.lng` says otherwise). Returns the namespace it changed.
 */
export const applyTenantConfig = (
  state: EngineState,
  body: unknown,
  options: TenantOverrideOptions = {},
): string => {
  const data = isPlainObject(body) && body.data;
  if (
    !isPlainObject(data) ||
    typeof data.namespace !== "string" ||
    !isPlainObject(data.overrides) ||
    (data.language !== undefined && typeof data.language !== "string")
  ) {
    throw new TypeError(
      "applyTenantConfig: expected a body of the form { data: { namespace, overrides } }",
    );
  }
  const lng = options.lng ?? (data.language as string | undefined);
  applyTenantOverrides(state, data.namespace, data.overrides as TenantOverrides, {
    ...options,
    lng,
  });
  return data.namespace;
};
