import {
  ASPECT_LIMIT,
  checkGraphDrawing,
  type GraphDrawing,
  type GraphFinding,
} from "./graph-check.js";
import { lineCrossings } from "./graph-layout/avoid.js";
import type { GraphDirection } from "./graph-layout.js";
import type { UnlocatedProblem } from "./validate/schema-problems.js";

/** How far a drawing's aspect lies outside 1:2.5 … 2.5:1 (0 inside), on a log scale. */
function misfit(l: { width: number; height: number }): number {
  const r = Math.abs(Math.log(l.width / Math.max(1, l.height)));
  return Math.max(0, r - Math.log(ASPECT_LIMIT));
}

/**
 * How far past the page a rough layout (lines not yet routed round boxes) may be for its try to
 * be laid out in full: routing changed a drawing's aspect by 3 % at most (log 0.031) on the
 * examples and the seeded corpus, so beyond 0.1 the full layout would not fit either.
 */
const ROUGH_SLACK = 0.1;

/**
 * How far past the page a layout's estimate from its layers alone (core/graph-layout's
 * `estimateGraphSize`, the type's heading and legend round it) may be for its try to be laid
 * out at all. Left to right, the estimate's width is the rough layout's and its height 92–99 %
 * of it (the data-flow example and 200 seeded data-flows), so its misfit lies at most 0.088
 * above the rough one's: beyond 0.2 the rough layout misses by more than ROUGH_SLACK too.
 */
const ESTIMATE_SLACK = 0.2;

/**
 * Left to right is the try that misses the page (a long chain of layers); a top-down try
 * mostly fits, and a rough pass before it would only add the type's placing once more.
 */
const across = (d: GraphDirection) => d === "right" || d === "left";

/**
 * The layout in the writer's direction or, with none given, the first that fits a page of:
 * the type's natural direction (`first`), the other orientation, then each with its layers
 * wrapped into bands; none fitting, the one nearest to fitting. With `drawing` (what the
 * checker reads of a layout), a fitting layout the checker faults, or a wrapped one whose lines
 * cross, is compared with the fitting ones after it (bands can join in more than one way): the
 * first with the fewest findings, then crossings, wins. An unwrapped left-to-right try is
 * first laid out roughly (`lay`'s `rough`: sizes only); one far from fitting is not laid out in
 * full unless no try fits. With `estimate` (the page's size from the layers alone), a try whose
 * estimate misses by far is not even laid out roughly.
 */
export function chooseDirection<L extends { width: number; height: number }>(
  given: GraphDirection | undefined,
  first: GraphDirection,
  lay: (direction: GraphDirection, wrap: boolean, rough: boolean) => L,
  drawing?: (l: L) => GraphDrawing,
  estimate?: (direction: GraphDirection) => { width: number; height: number },
): L {
  // A finding of the checker weighs more than any number of crossings.
  const crossings = drawing
    ? (l: L) => {
        const d = drawing(l);
        return lineCrossings(d.edges.map((e) => e.points)) + 1000 * checkGraphDrawing(d).length;
      }
    : undefined;
  if (given) return lay(given, false, false);
  const other: GraphDirection = first === "right" || first === "left" ? "down" : "right";
  // Tries that do not fit, in order: laid out in full, or skipped on their rough size.
  const missed: { direction: GraphDirection; wrap: boolean; l?: L }[] = [];
  let fit: { l: L; crossings: number } | undefined;
  for (const [direction, wrap] of [
    [first, false],
    [other, false],
    [first, true],
    [other, true],
  ] as const) {
    const far =
      !wrap &&
      across(direction) &&
      ((estimate && misfit(estimate(direction)) > ESTIMATE_SLACK) ||
        misfit(lay(direction, false, true)) > ROUGH_SLACK);
    if (far) {
      missed.push({ direction, wrap });
      continue;
    }
    const l = lay(direction, wrap, false);
    if (misfit(l) === 0) {
      const c = crossings ? crossings(l) : 0;
      if (!fit || c < fit.crossings) fit = { l, crossings: c };
      // An unwrapped drawing that fits and the checker passes is kept: only bands are weighed.
      if (fit.crossings === 0 || (!wrap && fit.crossings < 1000)) break;
      continue;
    }
    missed.push({ direction, wrap, l });
  }
  if (fit) return fit.l;
  let best: L | undefined;
  for (const m of missed) {
    const l = m.l ?? lay(m.direction, m.wrap, false);
    if (!best || misfit(l) < misfit(best)) best = l;
  }
  return best as L;
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
