import type { Dictionary } from "../types.js";

/** Keys that would reach an object's prototype if merged; never copied. */
const UNSAFE_KEYS = ["__proto__", "constructor", "prototype"];

export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  const proto = typeof value === "object" && value !== null && Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Deep-merges `patch` into a copy of `base`: `patch` wins key by key, nested objects merge, and
 * neither input is modified, so the engine never keeps or changes a caller's objects. `patch`
 * may come from outside and is validated on the way: unsafe keys are skipped (their dotted paths
 * go to `dropped`); anything but strings and plain objects throws a TypeError naming its path,
 * prefixed with `label` (the call at fault).
 */
export const mergeDictionary = (
  base: Dictionary,
  patch: unknown,
  label = "",
  dropped: string[] = [],
): Dictionary => {
  const walk = (into: Dictionary, node: Record<string, unknown>, path: string): Dictionary => {
    const out = { ...into };
    for (const key of Object.keys(node)) {
      const value = node[key];
      const at = path + key;
      const current = out[key];
      if (UNSAFE_KEYS.includes(key)) dropped.push(at);
      else if (typeof value === "string") out[key] = value;
      else if (isPlainObject(value)) {
        out[key] = walk(typeof current === "object" ? current : {}, value, `${at}.`);
      } else {
        throw new TypeError(
          `${label}: "${at}" must be a string or an object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`,
        );
      }
    }
    return out;
  };
  if (!isPlainObject(patch)) throw new TypeError(`${label}: dictionary must be an object`);
  return walk(base, patch, "");
};
