import type { FieldError } from "../../problems/catalogue.js";
import { leavesOf, type Overrides } from "./overrides.js";
import { STANDARD_PLACEHOLDERS } from "./standard-placeholders.js";

/**
 * The `{{name}}` placeholders of a text, each once, in order. `{{count, number}}` and
 * `{{- name}}` (i18next's format and unescaped forms) name `count` and `name`.
 */
const placeholdersIn = (text: string): string[] =>
  [
    ...new Set(
      [...text.matchAll(/\{\{([^{}]*)\}\}/g)].map((m) =>
        (m[1] ?? "").replace(/^\s*-/, "").split(",")[0]?.trim(),
      ),
    ),
  ].filter((name): name is string => name !== undefined);

/** The placeholders a key's standard text fills in (none for a key the console does not have). */
const allowedPlaceholders = (namespace: string, key: string): readonly string[] =>
  STANDARD_PLACEHOLDERS[namespace]?.[key] ?? [];

const shown = (names: readonly string[]) =>
  names.length === 0 ? "none" : names.map((n) => `{{${n}}}`).join(", ");

interface PlaceholderError extends FieldError {
  /** The placeholders the standard text has, as `{{name}}`. */
  allowed: string[];
}

/**
 * i18next's nesting prefix (the console keeps the default): `$t(key)` in a text is replaced by
 * another key's text when it is shown, so a few words that nest each other several times over
 * expand exponentially (five levels rendered 10 MB in 13 s on every screen that shows them). No
 * standard text nests, so a tenant's word may not either.
 */
const NESTING_PREFIX = "$t(";

/**
 * A word that uses a placeholder its standard text does not fill would show it literally on
 * every screen (`{{evil}}` in the orders list), and a word that nests another (`$t(…)`) could
 * expand without bound; each such word is a field error naming the placeholders that are
 * allowed. Placeholders left out are the admin's choice and allowed.
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
    const nests = text.includes(NESTING_PREFIX);
    if (unknown.length === 0 && !nests) continue;
    const uses = [
      ...(unknown.length > 0
        ? [`${shown(unknown)}, which the standard text does not fill in`]
        : []),
      ...(nests ? ["$t(…), another key's text, which a word may not nest"] : []),
    ];
    errors.push({
      pointer: pointerOf(key),
      message: `uses ${uses.join(", and ")}; allowed: ${shown(allowed)}`,
      allowed: allowed.map((n) => `{{${n}}}`),
    });
  }
  return errors;
}
