import { type Box, inflate, segmentMeetsBox } from "../../src/core/geometry.js";
import { LOOP_LABEL_GAP } from "../../src/core/graph-layout/region.js";
import type { Point } from "../../src/core/model.js";

/**
 * Where a self-loop's label stands: beside its loop (within the gap the layout keeps between
 * the loop's far run and the label), and off its line (no run of the loop through the label).
 * Undefined when it keeps both; else what it breaks.
 */
export function loopLabelFault(line: Point[], label: Box): string | undefined {
  const runs = line.slice(1).map((p, i) => [line[i] as Point, p] as const);
  if (!runs.some(([a, b]) => segmentMeetsBox(a, b, inflate(label, LOOP_LABEL_GAP + 0.5)))) {
    return "is not beside its loop";
  }
  if (runs.some(([a, b]) => segmentMeetsBox(a, b, inflate(label, -0.5)))) {
    return "sits on its own loop's line";
  }
  return undefined;
}
