import type { ViewTargets } from "../../core/validate/meta-rules.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { didYouMean } from "../../core/validate/suggest.js";
import { duplicateIds, isId, isObj, objects, suggestion } from "../../core/validate/values.js";

/**
 * The architecture rules the JSON Schema cannot say: ids unique across elements and boundaries,
 * references that resolve (relationship ends, view boundaries, near hints), no relationship to
 * itself or between a boundary and what it holds, near hints within one region.
 *
 * They read the raw parsed value, so a description with a schema problem still gets every other
 * problem in the same run; values of the wrong shape are skipped (the schema reports them).
 */

interface Named {
  id: string;
  pointer: string;
  /** Boundary ids around it, outermost first. */
  path: string[];
  boundary: boolean;
}

function collect(root: Record<string, unknown>, problems: UnlocatedProblem[]): Map<string, Named> {
  const named = new Map<string, Named>();
  const add = (o: Record<string, unknown>, at: string, path: string[], boundary: boolean) => {
    if (!isId(o.id)) return;
    const earlier = named.get(o.id);
    if (earlier) {
      problems.push({
        path: `${at}/id`,
        rule: "id/duplicate",
        message: `id "${o.id}" is already used by ${earlier.pointer}; elements and boundaries share one set of ids`,
      });
      return;
    }
    named.set(o.id, { id: o.id, pointer: at, path, boundary });
  };
  for (const [e, i] of objects(root.elements)) add(e, `/elements/${i}`, [], false);
  const walk = (list: unknown, pointer: string, path: string[]) => {
    for (const [b, i] of objects(list)) {
      const at = `${pointer}/${i}`;
      add(b, at, path, true);
      const inner = isId(b.id) ? [...path, b.id] : path;
      for (const [e, k] of objects(b.elements)) add(e, `${at}/elements/${k}`, inner, false);
      walk(b.boundaries, `${at}/boundaries`, inner);
    }
  };
  walk(root.boundaries, "/boundaries", []);
  return named;
}

export function architectureRuleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  const problems: UnlocatedProblem[] = [];
  const named = collect(value, problems);
  problems.push(
    ...duplicateIds([
      ["relationships", value.relationships, "relationship"],
      ["views", value.views, "view"],
    ]),
  );
  const ids = [...named.keys()];
  const resolve = (id: unknown, path: string, where: string): Named | undefined => {
    if (!isId(id)) return undefined;
    const found = named.get(id);
    if (!found) {
      problems.push({
        path,
        rule: "ref/element",
        message: `${where} "${id}" does not name any element or boundary`,
        ...suggestion(didYouMean(id, ids)),
      });
    }
    return found;
  };

  for (const [r, i] of objects(value.relationships)) {
    const from = resolve(r.from, `/relationships/${i}/from`, "from");
    const to = resolve(r.to, `/relationships/${i}/to`, "to");
    if (!from || !to) continue;
    if (from.id === to.id) {
      problems.push({
        path: `/relationships/${i}/to`,
        rule: "relationship/self",
        message: `relationship goes from "${from.id}" to itself`,
        suggestion: "name the element it uses, or remove the relationship",
      });
    } else if (to.path.includes(from.id) || from.path.includes(to.id)) {
      const [outer, inner] = to.path.includes(from.id) ? [from, to] : [to, from];
      problems.push({
        path: `/relationships/${i}`,
        rule: "relationship/nested",
        message: `relationship joins boundary "${outer.id}" and "${inner.id}", which is inside it; a boundary is what it holds, so the line would go nowhere`,
        suggestion: "join elements beside each other, or the boundary to something outside it",
      });
    }
  }

  const boundaries = [...named.values()].filter((n) => n.boundary).map((n) => n.id);
  for (const [v, i] of objects(value.views)) {
    if (!Array.isArray(v.expand)) continue;
    v.expand.forEach((id: unknown, k: number) => {
      if (!isId(id)) return;
      const found = named.get(id);
      if (found?.boundary) return;
      problems.push({
        path: `/views/${i}/expand/${k}`,
        rule: "ref/boundary",
        message: found
          ? `view opens "${id}", which is an element, not a boundary; only boundaries open`
          : `view opens "${id}", which does not name any boundary`,
        ...suggestion(didYouMean(id, boundaries)),
      });
    });
  }

  const hinted = (o: Record<string, unknown>, at: string) => {
    if (!isObj(o.hints) || !isId(o.id)) return;
    const self = named.get(o.id);
    const target = resolve(o.hints.near, `${at}/hints/near`, "near");
    if (!target || !self) return;
    const same = target.path.join("/") === self.path.join("/");
    if (target.id === self.id || !same) {
      problems.push({
        path: `${at}/hints/near`,
        rule: "hint/near",
        message:
          target.id === self.id
            ? `"${self.id}" is asked to sit near itself`
            : `near "${target.id}" is in another boundary than "${self.id}"; near works within one region`,
        suggestion: "name an element or boundary beside it in the same boundary",
      });
    }
  };
  for (const n of named.values()) {
    const o = pointerObject(value, n.pointer);
    if (o) hinted(o, n.pointer);
  }
  return problems;
}

function pointerObject(root: unknown, pointer: string): Record<string, unknown> | undefined {
  let at: unknown = root;
  for (const part of pointer.split("/").slice(1)) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (isObj(at)) at = at[part];
    else return undefined;
  }
  return isObj(at) ? at : undefined;
}

/** Guided views (meta.views) highlight elements and boundaries, and relationships with an id. */
export function viewTargets(value: unknown): ViewTargets {
  const problems: UnlocatedProblem[] = [];
  const named = isObj(value) ? collect(value, problems) : new Map<string, Named>();
  const relationships = isObj(value)
    ? objects(value.relationships).flatMap(([r]) => (typeof r.id === "string" ? [r.id] : []))
    : [];
  return {
    nodes: {
      kind: "element",
      noun: "element or boundary",
      ids: named.size > 0 ? new Set(named.keys()) : undefined,
    },
    edges: { kind: "relationship", noun: "relationship id", ids: new Set(relationships) },
  };
}
