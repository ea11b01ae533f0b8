import { assertLanguageCode, matchSupportedLanguage } from "../lib/language.js";
import type { LanguageSyncCallback, StorageAdapter } from "../types.js";
import { type EngineState, type LanguageChange, warn } from "./state.js";

/**
 * Optimistic language change. The interface switches and the choice is stored at once; with a
 * callback (the application's profile sync) the change is kept only if the callback succeeds.
 * On failure the language on screen and the stored choice go back to the last language whose
 * change has not failed, and the returned promise rejects with the callback's error. A failure
 * that arrives after a newer change took the screen does not touch the newer choice.
 */
export const changeLanguage = async (
  state: EngineState,
  language: string,
  callback?: LanguageSyncCallback,
): Promise<void> => {
  const storage = state.options?.storageAdapter;
  if (!storage || !state.i18n.isInitialized) {
    throw new Error("changeLanguage: await setupI18n first");
  }
  const supported = state.languages;
  const lng = matchSupportedLanguage(assertLanguageCode(language, "changeLanguage"), supported);
  if (!lng) {
    throw new RangeError(
      `changeLanguage: "${language}" is not a supported language (${supported.join(", ")})`,
    );
  }
  const change: LanguageChange = {
    previous: state.i18n.language,
    parent: state.currentChange,
    failed: false,
  };
  state.currentChange = change;
  await show(state, storage, lng);
  try {
    await callback?.(lng);
    // Synced: older changes can no longer matter, and dropping them keeps the chain short.
    change.parent = undefined;
  } catch (error) {
    change.failed = true;
    if (state.currentChange === change) {
      // Go back past every change that has failed to the last language that stands.
      let { previous, parent } = change;
      while (parent?.failed) ({ previous, parent } = parent);
      state.currentChange = parent;
      await show(state, storage, previous);
    }
    throw error;
  }
};

const show = async (state: EngineState, storage: StorageAdapter, lng: string): Promise<void> => {
  // Writes run one after another in call order, so a slow earlier write cannot land last.
  const stored = state.storageWrites
    .then(() => storage.setLanguage(lng))
    // The screen already shows the choice; only its persistence failed.
    .catch((cause) =>
      warn(state, "storage-write-failed", `could not store the language "${lng}"`, cause),
    );
  state.storageWrites = stored;
  await Promise.all([state.i18n.changeLanguage(lng), stored]);
};
