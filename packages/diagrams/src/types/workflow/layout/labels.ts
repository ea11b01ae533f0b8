import {
  boxContains,
  boxesOverlap,
  inflate,
  outlineCrosses,
  round,
  segmentHitsBox,
} from "../../../core/geometry.js";
import type { Edge, Point } from "../model.js";
import type { Box, EdgeLayout, TextBlock } from "./types.js";

/** What a label is placed among: everything drawn that it should not hide. */
export interface LabelScene {
  /** The drawing's extent: a label never leaves it when it can stay inside. */
  bounds: Box;
  nodes: Box[];
  /** Every edge's polyline, in edge order. */
  edges: Point[][];
  /** Each polyline's bounding box, so a label far from an edge skips its segments. */
  extents: Box[];
  /** Group and phase outlines, which read like lines under a label. */
  outlines: Box[];
  /** Group and phase captions. */
  captions: Box[];
  /** The backgrounds of the labels placed so far (each placed label is added). */
  placed: Box[];
  /** Every edge's arrowhead, which a label never hides. */
  arrows: Box[];
}

// What covering each thing costs. Nodes, other labels and the drawing's edge are never
// covered while a spot exists that avoids them; then another edge's line, then a group's
// or phase's outline; the position along the edge counts least (see `candidates`).
const HARD = 1_000_000;
const OTHER_EDGE = 100;
const CAPTION = 100;
const OUTLINE = 30;
const OWN_EDGE = 10;
/** A spot that does not touch its own edge reads as another edge's label: a last resort. */
const DETACHED = 150;

interface Candidate {
  center: Point;
  /** The edge segment the label sits on or beside. */
  segment: number;
  /** How far the spot is from the preferred one: the least a spot can cost. */
  rank: number;
}

// Positions along a segment, the middle first.
const ALONG = [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9];
/** Room kept free at each end of a segment that carries a label: corners and arrowheads. */
const END_ROOM = 18;

/**
 * Where a label may go along the polyline, best first: on a segment that holds it (its middle
 * first, then further along), beside it, then further out. Segments are tried longest first,
 * preferring horizontal ones, unless `labelSegment` names one.
 */
function candidates(edge: Edge, points: Point[], w: number, h: number): Candidate[] {
  const segments = points.length - 1;
  const order: number[] = [];
  if (edge.labelSegment !== undefined) order.push(Math.min(edge.labelSegment, segments - 1));
  else {
    const score = (i: number) => {
      const a = points[i] as Point;
      const b = points[i + 1] as Point;
      return Math.abs(a.x - b.x) + Math.abs(a.y - b.y) * 0.8;
    };
    for (let i = 0; i < segments; i++) order.push(i);
    order.sort((p, q) => score(q) - score(p) || p - q);
  }
  const out: Candidate[] = [];
  order.forEach((i, r) => {
    const a = points[i] as Point;
    const b = points[i + 1] as Point;
    const horizontal = Math.abs(a.y - b.y) < 0.01;
    const length = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    const extent = horizontal ? w : h;
    // Beside the line, its background touching it (the label must read as this edge's):
    // above/below a horizontal segment, right/left of a vertical one.
    const off = horizontal ? { x: 0, y: h / 2 + 2 } : { x: w / 2 + 4, y: 0 };
    const step = horizontal ? { x: 0, y: 6 } : { x: 6, y: 0 };
    ALONG.forEach((t, j) => {
      const at = { x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y) };
      const base = r * 8 + j;
      const room = Math.min(t, 1 - t) * length;
      if (room >= extent / 2 + END_ROOM) out.push({ center: at, segment: i, rank: base });
      for (const s of [1, -1]) {
        out.push({
          center: { x: at.x + s * off.x, y: at.y + s * off.y },
          segment: i,
          rank: base + 6,
        });
      }
      if (j > 0) return;
      // Last resorts: further from the line, until clear of what is beside it.
      for (let k = 1; k <= 8; k++) {
        for (const s of [1, -1]) {
          out.push({
            center: { x: at.x + s * (off.x + k * step.x), y: at.y + s * (off.y + k * step.y) },
            segment: i,
            rank: base + DETACHED + 3 * k,
          });
        }
      }
    });
  });
  return out.sort((p, q) => p.rank - q.rank);
}

/** What covering the scene costs with the label's background at `bg` (see the weights above). */
// Stops adding once `budget` is reached: the caller only needs to know the spot is no better.
function cost(bg: Box, own: number, segment: number, scene: LabelScene, budget: number): number {
  let total = 0;
  if (!boxContains(scene.bounds, bg)) total += HARD;
  for (const n of scene.nodes) if (boxesOverlap(bg, n)) return total + HARD;
  for (const p of scene.placed) if (boxesOverlap(bg, p)) return total + HARD;
  for (const a of scene.arrows) if (boxesOverlap(bg, a)) return total + HARD;
  if (total >= budget) return total;
  // Another line touching the background is as near as the label's own: it misleads.
  const near = inflate(bg, 1);
  for (let e = 0; e < scene.edges.length; e++) {
    const points = scene.edges[e] as Point[];
    if (!boxesOverlap(inflate(scene.extents[e] as Box, 1), near)) continue;
    for (let i = 1; i < points.length; i++) {
      if (e === own && i - 1 === segment) continue;
      if (segmentHitsBox(points[i - 1] as Point, points[i] as Point, e === own ? bg : near)) {
        total += e === own ? OWN_EDGE : OTHER_EDGE;
        if (total >= budget) return total;
      }
    }
  }
  for (const c of scene.captions) if (boxesOverlap(bg, c)) total += CAPTION;
  for (const o of scene.outlines) if (outlineCrosses(bg, o)) total += OUTLINE;
  return total;
}

/**
 * Places an edge's label: at `labelAt` when given; otherwise on the candidate spot (see
 * `candidates`) that covers least: never a node, another label or the drawing's edge where a
 * spot avoids them, then as few other edges' lines and group or phase outlines as possible,
 * then the spot nearest the preferred one. `labelDx`/`labelDy` shift the result either way.
 * `own` is the edge's index in `scene.edges`.
 */
export function placeEdgeLabel(
  edge: Edge,
  own: number,
  block: TextBlock,
  scene: LabelScene,
): NonNullable<EdgeLayout["label"]> {
  const points = scene.edges[own] as Point[];
  const w = block.box.width;
  const h = block.box.height;
  const dx = edge.labelDx ?? 0;
  const dy = edge.labelDy ?? 0;
  const background = (c: Point): Box => ({
    x: round(c.x + dx - w / 2 - 4),
    y: round(c.y + dy - h / 2 - 2),
    width: round(w + 8),
    height: round(h + 4),
  });
  let center: Point;
  if (edge.labelAt) center = edge.labelAt;
  else {
    const spots = candidates(edge, points, w, h);
    let best = spots[0] as Candidate;
    let bestCost = Number.POSITIVE_INFINITY;
    for (const spot of spots) {
      // Spots come cheapest-rank first and covering never costs less than nothing.
      if (spot.rank >= bestCost) break;
      const c =
        spot.rank + cost(background(spot.center), own, spot.segment, scene, bestCost - spot.rank);
      if (c < bestCost) {
        best = spot;
        bestCost = c;
      }
    }
    center = best.center;
  }
  const bg = background(center);
  scene.placed.push(bg);
  return {
    ...block,
    box: { ...block.box, x: round(center.x + dx - w / 2), y: round(center.y + dy - h / 2) },
    background: bg,
  };
}
