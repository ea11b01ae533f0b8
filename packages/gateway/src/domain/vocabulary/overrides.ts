import type { FieldError } from "../../problems/catalogue.js";

/**
 * Tenant vocabulary overrides: a nested object whose leaves are strings, the shape of the
 * front end's dictionaries (keys addressed by dotted path, so a key holds no dot). Pure
 * functions: validation with every problem located, and the difference between two versions.
 */

export type Overrides = { [key: string]: string | Overrides };

export const OVERRIDE_LIMITS = {
  /** Nesting levels, the top level being 1. */
  maxDepth: 8,
  maxKeyLength: 128,
  maxStringLength: 4000,
} as const;

/** Keys that could reach an object's prototype in a consumer that merges naively. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

const KEY_PATTERN = /^[^.\s][^.]*$/;

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * The problems of a candidate overrides object (empty when it is valid), as JSON Pointers. How
 * many keys and bytes a namespace may hold are shares (vocabulary_keys, vocabulary_bytes),
 * checked by the vocabulary service on the tree a write would store.
 */
export function overridesProblems(value: unknown, basePointer = "/overrides"): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (errors.length >= 20) return;
    if (node === null || typeof node !== "object" || Array.isArray(node)) {
      errors.push({ pointer, message: "must be an object whose leaves are strings" });
      return;
    }
    if (depth > OVERRIDE_LIMITS.maxDepth) {
      errors.push({ pointer, message: `nests deeper than ${OVERRIDE_LIMITS.maxDepth} levels` });
      return;
    }
    // Own keys, __proto__ included: JSON.parse makes it an own property, never the prototype.
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      const childPointer = `${pointer}/${escapePointer(key)}`;
      if (UNSAFE_KEYS.has(key)) {
        errors.push({ pointer: childPointer, message: `the key '${key}' is not allowed` });
      } else if (key.length > OVERRIDE_LIMITS.maxKeyLength || !KEY_PATTERN.test(key)) {
        errors.push({
          pointer: childPointer,
          message: `a key is 1–${OVERRIDE_LIMITS.maxKeyLength} characters, without '.' and not starting with a space`,
        });
      } else if (typeof child === "string") {
        if (child.length > OVERRIDE_LIMITS.maxStringLength) {
          errors.push({
            pointer: childPointer,
            message: `is longer than ${OVERRIDE_LIMITS.maxStringLength} characters`,
          });
        }
      } else if (child !== null && typeof child === "object" && !Array.isArray(child)) {
        if (Object.keys(child).length === 0) {
          errors.push({ pointer: childPointer, message: "is an empty object" });
        } else {
          visit(child, childPointer, depth + 1);
        }
      } else {
        errors.push({ pointer: childPointer, message: "must be a string or an object" });
      }
      if (errors.length >= 20) return;
    }
  };
  visit(value, basePointer, 1);
  return errors;
}

/**
 * What is wrong with a dotted key path addressed on its own (a URL segment), or undefined: each
 * segment follows the tree's key rules, and there are at most `maxDepth` of them.
 */
export function keyPathProblem(path: string): string | undefined {
  const segments = path.split(".");
  if (segments.length > OVERRIDE_LIMITS.maxDepth) {
    return `nests deeper than ${OVERRIDE_LIMITS.maxDepth} levels`;
  }
  for (const segment of segments) {
    if (UNSAFE_KEYS.has(segment)) return `the key '${segment}' is not allowed`;
    if (segment.length > OVERRIDE_LIMITS.maxKeyLength || !KEY_PATTERN.test(segment)) {
      return `each part is 1–${OVERRIDE_LIMITS.maxKeyLength} characters, not starting with a space`;
    }
  }
  return undefined;
}

/** The keys of a tree, objects included (`{a: {b: "x"}}` has two). */
export function keyCount(overrides: Overrides): number {
  let count = 0;
  for (const value of Object.values(overrides))
    count += 1 + (typeof value === "string" ? 0 : keyCount(value));
  return count;
}

/** The leaves of an overrides tree by dotted path. */
export function leavesOf(overrides: Overrides, prefix = ""): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(overrides)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (typeof value === "string") leaves.set(path, value);
    else for (const [p, v] of leavesOf(value, path)) leaves.set(p, v);
  }
  return leaves;
}

export interface OverridesChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/** What replacing `before` with `after` did, by dotted key path, each list sorted. */
export function changesBetween(before: Overrides, after: Overrides): OverridesChanges {
  const old = leavesOf(before);
  const next = leavesOf(after);
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [path, value] of next) {
    if (!old.has(path)) added.push(path);
    else if (old.get(path) !== value) changed.push(path);
  }
  for (const path of old.keys()) if (!next.has(path)) removed.push(path);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}
