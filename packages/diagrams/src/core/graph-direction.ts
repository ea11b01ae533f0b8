import {
  ASPECT_LIMIT,
  checkGraphDrawing,
  type GraphDrawing,
  type GraphFinding,
} from "./graph-check.js";
import type { GraphDirection } from "./graph-layout.js";
import type { UnlocatedProblem } from "./validate/schema-problems.js";

/** How far a drawing's aspect lies outside 1:2.5 … 2.5:1 (0 inside), on a log scale. */
function misfit(l: { width: number; height: number }): number {
  const r = Math.abs(Math.log(l.width / Math.max(1, l.height)));
  return Math.max(0, r - Math.log(ASPECT_LIMIT));
}

/**
 * The layout in the writer's direction or, with none given, in the type's natural one (`first`)
 * unless it comes out too wide or too tall for a page and the other orientation fits better.
 */
export function chooseDirection<L extends { width: number; height: number }>(
  given: GraphDirection | undefined,
  first: GraphDirection,
  lay: (direction: GraphDirection) => L,
): L {
  if (given) return lay(given);
  const a = lay(first);
  if (misfit(a) === 0) return a;
  const horizontal = first === "right" || first === "left";
  const b = lay(horizontal ? "down" : "right");
  return misfit(b) < misfit(a) ? b : a;
}

/** The checker's findings as render warnings, located by the pointer `at` gives each id. */
export function drawingWarnings(
  d: GraphDrawing,
  at: (id: string | undefined) => string,
): UnlocatedProblem[] {
  return checkGraphDrawing(d).map((f: GraphFinding) => ({
    path: at(f.id),
    rule: `render/${f.rule}`,
    message: f.message,
  }));
}
