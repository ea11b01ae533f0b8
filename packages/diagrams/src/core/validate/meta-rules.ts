import type { UnlocatedProblem } from "./schema-problems.js";
import { duplicateIds, idsOf, isObj, objects, type Target, unresolved } from "./values.js";

/** What a type's guided views may highlight: its boxes (`nodes`) and its lines (`edges`). */
export interface ViewTargets {
  nodes: Target;
  edges: Target;
}

/**
 * The rules on `meta` beyond the schema, the same for every type: guided view ids are unique,
 * and each view highlights only what the description declares (`targets`, from the type;
 * without them the references are not checked).
 */
export function metaProblems(root: unknown, targets?: ViewTargets): UnlocatedProblem[] {
  if (!isObj(root) || !isObj(root.meta)) return [];
  const views = root.meta.views;
  const problems = duplicateIds([["meta/views", views, "view"]]);
  if (!targets) return problems;
  for (const [view, v] of objects(views)) {
    for (const [id, i] of idsOf(view.nodes)) {
      const p = unresolved(targets.nodes, id, `/meta/views/${v}/nodes/${i}`, "view node");
      if (p) problems.push(p);
    }
    for (const [id, i] of idsOf(view.edges)) {
      const p = unresolved(targets.edges, id, `/meta/views/${v}/edges/${i}`, "view edge");
      if (p) problems.push(p);
    }
  }
  return problems;
}
