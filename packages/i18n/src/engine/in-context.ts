import type { InContextKey } from "../types.js";
import type { EngineState } from "./state.js";

export type { InContextKey };

// A mark is U+2063 (invisible separator) followed by the registry index of the key in binary,
// written with U+200C (0) and U+200D (1): invisible on screen, kept by copy and the DOM.
const START = "\u2063";
const DIGITS = ["\u200c", "\u200d"];
const MARK = /\u2063([\u200c\u200d]+)/g;

let engines = 0;

/** The mark appended to a string translated from `namespace:key`, registering the key once. */
const markOf = (state: EngineState, namespace: string, key: string): string => {
  const id = `${namespace}:${key}`;
  let index = state.inContext.ids.get(id);
  if (index === undefined) {
    index = state.inContext.keys.length;
    state.inContext.keys.push({ namespace, key });
    state.inContext.ids.set(id, index);
  }
  return START + [...index.toString(2)].map((bit) => DIGITS[Number(bit)]).join("");
};

interface Resolved {
  i18nResolved?: { usedNS?: string; exactUsedKey?: string; usedKey?: string };
}

/**
 * Turns the in-context mode on or off. While on, every string `t()` returns carries an invisible
 * mark naming its namespace and key, so a click on rendered text can find what to edit
 * (`inContextKeysOf`). Mounted components re-render either way. An i18next post-processor does
 * the marking; it is installed only while the mode is on, so `t()` costs nothing extra otherwise.
 */
export const setInContextMode = (state: EngineState, on: boolean): void => {
  const { inContext, i18n } = state;
  inContext.on = on;
  if (!i18n.isInitialized) return; // setup calls this again
  if (!inContext.name) {
    inContext.name = `orderline-in-context-${++engines}`;
    i18n.use({
      type: "postProcessor",
      name: inContext.name,
      process: (value: unknown, keys: string | string[], options: Resolved) => {
        if (typeof value !== "string") return value;
        const found = options.i18nResolved;
        const key = found?.exactUsedKey ?? found?.usedKey ?? `${keys}`;
        return value + markOf(state, found?.usedNS ?? `${i18n.options.defaultNS}`, key);
      },
    });
  }
  const options = i18n.options;
  const listed = [options.postProcess || []]
    .flat()
    .filter((name): name is string => name !== inContext.name);
  options.postProcess = on ? [...listed, inContext.name] : listed;
  // The resolved key and namespace reach the post-processor only with this option.
  if (on) options.postProcessPassResolved = true;
  // react-i18next re-renders on the store's "added" event (setup binds it).
  (i18n.store as unknown as { emit(event: string, ...args: unknown[]): void }).emit(
    "added",
    i18n.language,
    options.defaultNS,
  );
};

/** The keys whose marks a text carries, in order, each once (a text may hold several). */
export const inContextKeysOf = (state: EngineState, text: string): InContextKey[] => {
  const found = new Map<number, InContextKey>();
  for (const [, bits = ""] of text.matchAll(MARK)) {
    const index = Number.parseInt([...bits].map((d) => DIGITS.indexOf(d)).join(""), 2);
    const key = state.inContext.keys[index];
    if (key) found.set(index, key);
  }
  return [...found.values()];
};

/** The text without in-context marks: what the user reads. */
export const stripInContextMarks = (text: string): string => text.replace(MARK, "");
