import type { FieldError } from "../../http/errors.js";
import { leavesOf, type Overrides } from "./overrides.js";
import { STANDARD_PLACEHOLDERS } from "./standard-placeholders.js";

/**
 * The `{{name}}` placeholders of a text, each once, in order. `{{count, number}}` and
 * `{{- name}}` (i18next's format and unescaped forms) name `count` and `name`.
 */
export const placeholdersIn = (text: string): string[] =>
  [
    ...new Set(
      [...text.matchAll(/\{\{([^{}]*)\}\}/g)].map((m) =>
        (m[1] ?? "").replace(/^\s*-/, "").split(",")[0]?.trim(),
      ),
    ),
  ].filter((name): name is string => name !== undefined);

/** The placeholders a key's standard text fills in (none for a key the console does not have). */
export const allowedPlaceholders = (namespace: string, key: string): readonly string[] =>
  STANDARD_PLACEHOLDERS[namespace]?.[key] ?? [];

const shown = (names: readonly string[]) =>
  names.length === 0 ? "none" : names.map((n) => `{{${n}}}`).join(", ");

export interface PlaceholderError extends FieldError {
  /** The placeholders the standard text has, as `{{name}}`. */
  allowed: string[];
}

/**
 * A word that uses a placeholder its standard text does not fill would show it literally on
 * every screen (`{{evil}}` in the orders list); each such word is a field error naming the
 * placeholders that are allowed. Placeholders left out are the admin's choice and allowed.
 */
export function placeholderProblems(
  namespace: string,
  overrides: Overrides,
  pointerOf: (key: string) => string,
): PlaceholderError[] {
  const errors: PlaceholderError[] = [];
  for (const [key, text] of leavesOf(overrides)) {
    const allowed = allowedPlaceholders(namespace, key);
    const unknown = placeholdersIn(text).filter((name) => !allowed.includes(name));
    if (unknown.length === 0) continue;
    errors.push({
      pointer: pointerOf(key),
      message: `uses ${shown(unknown)}, which the standard text does not fill in; allowed: ${shown(allowed)}`,
      allowed: allowed.map((n) => `{{${n}}}`),
    });
  }
  return errors;
}
