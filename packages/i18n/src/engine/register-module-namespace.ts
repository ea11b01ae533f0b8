import { isPlainObject } from "../lib/dictionary.js";
import { assertLanguageCode } from "../lib/language.js";
import { assertNamespace } from "../lib/namespace.js";
import type { DictionariesByLanguage, Dictionary } from "../types.js";
import { type EngineState, languagesOf, mergeChecked, publish } from "./state.js";

/**
 * Registers a module's dictionaries under its namespace. Safe at module scope, before or after
 * setup. Idempotent per namespace and language: languages already registered are left as they
 * are (no change, no re-render); new languages are added. Tenant overrides that arrived earlier
 * are applied on top. The caller's objects are copied, never kept or changed.
 */
export const registerModuleNamespace = (
  state: EngineState,
  namespace: string,
  dictionaries: DictionariesByLanguage,
): void => {
  const label = `registerModuleNamespace("${assertNamespace(namespace, "registerModuleNamespace")}")`;
  if (!isPlainObject(dictionaries)) throw new TypeError(`${label}: expected { [lng]: dictionary }`);
  const known = state.registered.get(namespace);
  // Validate everything first so a bad language registers nothing.
  const fresh: Array<[string, Dictionary]> = [];
  for (const lng of Object.keys(dictionaries)) {
    assertLanguageCode(lng, label);
    if (!known?.has(lng)) {
      fresh.push([lng, mergeChecked(state, {}, dictionaries[lng], `${label} "${lng}"`)]);
    }
  }
  for (const [lng, dictionary] of fresh) {
    languagesOf(state.registered, namespace).set(lng, dictionary);
    if (state.i18n.isInitialized) publish(state, namespace, lng);
  }
};
