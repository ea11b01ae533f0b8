import { isPlainObject } from "../lib/dictionary.js";
import { assertLanguageCode } from "../lib/language.js";
import { assertNamespace } from "../lib/namespace.js";
import type { DictionariesByLanguage, Dictionary } from "../types.js";
import { type EngineState, languagesOf, mergeChecked, publish } from "./state.js";

export interface RegisterOptions {
  /**
   * Replace the languages already registered instead of keeping them: for a dev server's hot
   * module replacement, where the edited dictionary file runs its registration again. Pass
   * `import.meta.hot !== undefined` (Vite) so production keeps the idempotent behaviour.
   * Tenant overrides stay on top. Default `false`.
   */
  replace?: boolean;
}

/**
 * Registers a module's dictionaries under its namespace. Safe at module scope, before or after
 * setup. Idempotent per namespace and language: languages already registered are left as they
 * are (no change, no re-render); new languages are added. With `replace`, given languages are
 * swapped for the new dictionaries (keys that were removed disappear) and mounted components
 * re-render. Tenant overrides that arrived earlier are applied on top. The caller's objects are
 * copied, never kept or changed.
 */
export const registerModuleNamespace = (
  state: EngineState,
  namespace: string,
  dictionaries: DictionariesByLanguage,
  options: RegisterOptions = {},
): void => {
  const label = `registerModuleNamespace("${assertNamespace(namespace, "registerModuleNamespace")}")`;
  if (!isPlainObject(dictionaries)) throw new TypeError(`${label}: expected { [lng]: dictionary }`);
  const known = state.registered.get(namespace);
  // Validate everything first so a bad language registers nothing.
  const fresh: Array<[string, Dictionary]> = [];
  for (const lng of Object.keys(dictionaries)) {
    assertLanguageCode(lng, label);
    if (options.replace || !known?.has(lng)) {
      fresh.push([lng, mergeChecked(state, {}, dictionaries[lng], `${label} "${lng}"`)]);
    }
  }
  for (const [lng, dictionary] of fresh) {
    const replaced = known?.has(lng) === true;
    languagesOf(state.registered, namespace).set(lng, dictionary);
    if (!state.i18n.isInitialized) continue;
    // i18next only merges into a bundle it holds: removed keys would linger without this.
    if (replaced) state.i18n.removeResourceBundle(lng, namespace);
    publish(state, namespace, lng);
  }
};
