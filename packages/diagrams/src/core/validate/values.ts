/**
 * Helpers for rules that read a raw parsed value (not a schema-valid description): anything of
 * the wrong shape is skipped, since the schema already reports it.
 */
import type { UnlocatedProblem } from "./schema-problems.js";
import { didYouMean } from "./suggest.js";

export type Obj = Record<string, unknown>;

/** The schema's id pattern ($defs/id), which validate-schema.test.ts keeps equal. */
export const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
export const isObj = (v: unknown): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const isId = (v: unknown): v is string => typeof v === "string" && ID_PATTERN.test(v);

export const suggestion = (text: string | undefined) =>
  text === undefined ? {} : { suggestion: text };

/** Array elements that are objects, with their index. */
export function objects(v: unknown): [Obj, number][] {
  return Array.isArray(v)
    ? v.flatMap((item, i): [Obj, number][] => (isObj(item) ? [[item, i]] : []))
    : [];
}

/** Array elements that are ids, with their index. */
export function idsOf(v: unknown): [string, number][] {
  return Array.isArray(v)
    ? v.flatMap((item, i): [string, number][] => (isId(item) ? [[item, i]] : []))
    : [];
}

/**
 * The ids declared in a collection; undefined when it is missing or empty, in which case the
 * schema reports that and references to it are not reported one by one. Any string counts as
 * declared: a malformed id is reported once, where it is declared, not again at every
 * reference that spells it the same way.
 */
export function idSet(list: unknown): Set<string> | undefined {
  return Array.isArray(list) && list.length > 0
    ? new Set(objects(list).flatMap(([o]) => (typeof o.id === "string" ? [o.id] : [])))
    : undefined;
}

/** What a reference may name: the rule is `ref/<kind>`, the message says "any <noun>". */
export interface Target {
  kind: string;
  noun: string;
  ids: Set<string> | undefined;
}

/** A problem when `id` (an id at `path`, described as `where`) names nothing in `target`. */
export function unresolved(
  target: Target,
  id: unknown,
  path: string,
  where: string,
  at: "key" | "value" = "value",
): UnlocatedProblem | undefined {
  if (!isId(id) || target.ids === undefined || target.ids.has(id)) return undefined;
  return {
    path,
    rule: `ref/${target.kind}`,
    message: `${where} "${id}" does not name any ${target.noun}`,
    ...suggestion(didYouMean(id, target.ids)),
    at,
  };
}

/** `id/duplicate` for each id used twice in one collection: [pointer, list, kind name]. */
export function duplicateIds(collections: [string, unknown, string][]): UnlocatedProblem[] {
  const problems: UnlocatedProblem[] = [];
  for (const [base, list, kind] of collections) {
    const first = new Map<string, number>();
    for (const [item, i] of objects(list)) {
      if (!isId(item.id)) continue;
      const earlier = first.get(item.id);
      if (earlier === undefined) {
        first.set(item.id, i);
        continue;
      }
      problems.push({
        path: `/${base}/${i}/id`,
        rule: "id/duplicate",
        message: `${kind} id "${item.id}" is already used by /${base}/${earlier}; ${kind} ids must be unique`,
      });
    }
  }
  return problems;
}
