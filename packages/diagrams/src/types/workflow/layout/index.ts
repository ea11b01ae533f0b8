import type { UnlocatedProblem } from "../../../core/validate/schema-problems.js";
import type { WorkflowDiagram } from "../model.js";
import { labelEdges } from "./edges.js";
import {
  finalPass,
  type Growth,
  type Measured,
  measure,
  type Pass,
  trialPass,
  warningsPass,
} from "./pass.js";
import type { Room } from "./route.js";
import { mayCutText } from "./texts.js";
import { roomFor } from "./tracks.js";
import type { Layout } from "./types.js";

export { type Words, wordsFor } from "../../../core/words.js";
export { METRICS } from "./metrics.js";
export type * from "./types.js";

/** How many times the grid may grow to give every run its own track. */
const MAX_GROWTH = 3;

/**
 * Lays the grid out and routes the edges, then widens every gutter and lane gap that lacked
 * tracks and does it again, until every run has its own track (or MAX_GROWTH rounds).
 */
function settle(diagram: WorkflowDiagram, measured: Measured, from?: Growth): Pass {
  let growth = from;
  for (let round = 0; ; round++) {
    const pass =
      round < MAX_GROWTH
        ? trialPass(diagram, measured, growth)
        : finalPass(diagram, measured, growth);
    const { xShort, yShort } = pass.routed;
    if (round === MAX_GROWTH || (xShort.every((n) => n === 0) && yShort.every((n) => n === 0))) {
      return pass;
    }
    const before = growth;
    growth = {
      cols: xShort.map((n, c) => (before?.cols[c] ?? 0) + roomFor("x", n)),
      gaps: yShort.map((n, l) => (before?.gaps[l] ?? 0) + roomFor("y", n)),
      spread: before?.spread ?? [],
      outside: before?.outside ?? 0,
    };
  }
}

/** How many times the grid may grow to give every label room beside its own edge. */
const MAX_LABEL_GROWTH = 3;
/** Room kept around a label a gutter or gap grows for. */
const LABEL_MARGIN = 2 * 12;

/**
 * The growth that gives each crowded label room: the gutter its segment runs in or crosses
 * widens by the label's width, the lane gap by its height (once per channel, the largest).
 */
function labelGrowth(pass: Pass, crowded: ReturnType<typeof labelEdges>): Growth {
  const { xs, ys, xRoom, yRoom } = pass.channels;
  const cols = [...pass.growth.cols];
  const gaps = [...pass.growth.gaps];
  const colNeed = xs.map(() => 0);
  const gapNeed = ys.map(() => 0);
  const spread: boolean[] = [];
  let outside = 0;
  const bodyRight = (xs[xs.length - 1] as number) + (xRoom[xRoom.length - 1] as Room).hi;
  const nearest = (lines: number[], v: number) =>
    lines.reduce(
      (best, l, i) => (Math.abs(l - v) < Math.abs((lines[best] as number) - v) ? i : best),
      0,
    );
  const within = (lines: number[], rooms: Room[], v: number) =>
    lines.findIndex((l, i) => v - l >= (rooms[i] as Room).lo && v - l <= (rooms[i] as Room).hi);
  for (const { a, b, width, height } of crowded) {
    const horizontal = Math.abs(a.y - b.y) < 0.01;
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    // A run along a gap or gutter needs it deeper; one across, the gutter or gap it crosses.
    const gap = horizontal ? within(ys, yRoom, a.y) : -1;
    const gutter = horizontal ? -1 : within(xs, xRoom, a.x);
    if (!horizontal && a.x > bodyRight) outside = Math.max(outside, width + LABEL_MARGIN);
    else if (gap >= 0) {
      gapNeed[gap] = Math.max(gapNeed[gap] as number, height + LABEL_MARGIN);
      spread[gap] = true;
    } else if (gutter >= 0)
      colNeed[gutter] = Math.max(colNeed[gutter] as number, width + LABEL_MARGIN);
    else if (horizontal) {
      const c = nearest(xs, mid.x);
      colNeed[c] = Math.max(colNeed[c] as number, width + LABEL_MARGIN);
    } else {
      const l = nearest(ys, mid.y);
      gapNeed[l] = Math.max(gapNeed[l] as number, height + LABEL_MARGIN);
    }
  }
  return {
    cols: cols.map((g, c) => g + (colNeed[c] as number)),
    gaps: gaps.map((g, l) => g + (gapNeed[l] as number)),
    spread: ys.map((_, l) => pass.growth.spread[l] === true || spread[l] === true),
    outside: pass.growth.outside + outside,
  };
}

/** Positions every part of the diagram. Pure: the same description always gives the same numbers. */
export function layoutDiagram(diagram: WorkflowDiagram): Layout {
  const measured = measure(diagram);
  let growth: Growth | undefined;
  for (let round = 0; ; round++) {
    const pass = settle(diagram, measured, growth);
    const crowded = labelEdges(
      pass.layout.edges,
      pass.nodes,
      pass.bounds,
      pass.bands,
      pass.layout.lanes.map((l) => l.header),
      measured.labels,
    );
    if (crowded.length === 0 || round === MAX_LABEL_GROWTH) return pass.layout;
    growth = labelGrowth(pass, crowded);
  }
}

/**
 * What the drawing cannot honour, as `layoutDiagram(diagram).warnings` gives it, without
 * placing the edge labels (which warn about nothing): what `validate` reports, made cheaply.
 */
export function layoutWarnings(diagram: WorkflowDiagram): UnlocatedProblem[] {
  // Only a requested route or channel (what routeEdges routes in such a pass) and text cut
  // short can warn. Most descriptions have neither, and that is known without a layout.
  const requests = diagram.edges.some(
    (e) => e.route !== undefined || e.channelX !== undefined || e.channelY !== undefined,
  );
  if (!requests && !mayCutText(diagram)) return [];
  // Growing the grid keeps every node, channel and coordinate in its order (and the title at
  // its width), so what the routes cannot honour is the same before it: one pass suffices.
  return warningsPass(diagram, measure(diagram)).layout.warnings;
}
