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
  /**
   * Labels that found no spot clear of every other line (or only one away from their edge),
   * each with the segment it went to and its size: where the grid lacks room.
   */
  crowded: { a: Point; b: Point; width: number; height: number }[];
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

/** Another edge's segment near a labelled one: its span along that segment and across it. */
type Blocker = [along0: number, along1: number, across0: number, across1: number];

/** The other edges' segments within `reach` of segment a–b's line, between its ends. */
function blockers(a: Point, b: Point, reach: number, own: number, scene: LabelScene): Blocker[] {
  const horizontal = Math.abs(a.y - b.y) < 0.01;
  const along = horizontal ? "x" : "y";
  const across = horizontal ? "y" : "x";
  const lo = Math.min(a[along], b[along]);
  const hi = Math.max(a[along], b[along]);
  const c = a[across];
  const strip: Box = horizontal
    ? { x: lo, y: c - reach, width: hi - lo, height: 2 * reach }
    : { x: c - reach, y: lo, width: 2 * reach, height: hi - lo };
  const out: Blocker[] = [];
  const wide = inflate(strip, 2);
  scene.edges.forEach((points, e) => {
    if (e === own || !boxesOverlap(scene.extents[e] as Box, wide)) return;
    for (let i = 1; i < points.length; i++) {
      const p = points[i - 1] as Point;
      const q = points[i] as Point;
      if (!segmentHitsBox(p, q, wide)) continue;
      out.push([
        Math.min(p[along], q[along]) - 3,
        Math.max(p[along], q[along]) + 3,
        Math.min(p[across], q[across]) - c,
        Math.max(p[across], q[across]) - c,
      ]);
    }
  });
  return out.sort((p, q) => p[0] - q[0]);
}

/**
 * The stretches between `lo` and `hi` along a segment that no blocker reaches within the strip
 * from `near` to `far` across it, longest first: where a label there touches no other line.
 */
function freeStretches(
  lo: number,
  hi: number,
  near: number,
  far: number,
  blocked: Blocker[],
): [number, number][] {
  if (hi <= lo) return [];
  const s0 = Math.min(near, far) - 2;
  const s1 = Math.max(near, far) + 2;
  const out: [number, number][] = [];
  let at = lo;
  for (const [b0, b1, c0, c1] of blocked) {
    if (c1 <= s0 || c0 >= s1) continue;
    if (b0 > at) out.push([at, Math.min(b0, hi)]);
    at = Math.max(at, b1);
    if (at >= hi) break;
  }
  if (at < hi) out.push([at, hi]);
  return out.sort((p, q) => q[1] - q[0] - (p[1] - p[0]));
}

/**
 * Spots in the middle of the longest stretches of the segment from `points[i]` that no other
 * edge crosses: on the line, then beside it either way (ranked from `base`).
 */
function stretchSpots(
  points: Point[],
  i: number,
  base: number,
  own: number,
  scene: LabelScene,
  w: number,
  h: number,
): Candidate[] {
  const a = points[i] as Point;
  const b = points[i + 1] as Point;
  const horizontal = Math.abs(a.y - b.y) < 0.01;
  const along = horizontal ? "x" : "y";
  const extent = horizontal ? w : h;
  const half = (horizontal ? h : w) / 2;
  const gap = horizontal ? 2 : 4;
  const lo = Math.min(a[along], b[along]) + END_ROOM;
  const hi = Math.max(a[along], b[along]) - END_ROOM;
  if (hi <= lo) return [];
  const blocked = blockers(a, b, 2 * half + gap + 4, own, scene);
  const out: Candidate[] = [];
  for (const side of [0, 1, -1]) {
    const [near, far] = side === 0 ? [-half - 2, half + 2] : [0, side * (2 * half + gap + 2)];
    const fits = freeStretches(lo, hi, near, far, blocked).filter(
      ([s0, s1]) => s1 - s0 >= (side === 0 ? extent : extent - 2 * END_ROOM + 8),
    );
    for (const [s0, s1] of fits.slice(0, 2)) {
      const m = (s0 + s1) / 2;
      const shift = side * (half + gap);
      out.push({
        center: horizontal ? { x: m, y: a.y + shift } : { x: a.x + shift, y: m },
        segment: i,
        rank: base + (side === 0 ? 0.5 : 6.5),
      });
    }
  }
  return out;
}

/**
 * Where a label may go along the polyline, best first: on a segment that holds it (its middle
 * first, then further along), beside it, then further out; on or beside each segment, first
 * in the middle of the longest stretch no other edge crosses. Segments are tried longest
 * first, preferring horizontal ones, unless `labelSegment` names one.
 */
function candidates(
  edge: Edge,
  points: Point[],
  w: number,
  h: number,
): { spots: Candidate[]; far: Candidate[]; order: number[] } {
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
  // The last resorts, sorted and tried only when nothing nearer will do.
  const far: Candidate[] = [];
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
          far.push({
            center: { x: at.x + s * (off.x + k * step.x), y: at.y + s * (off.y + k * step.y) },
            segment: i,
            rank: base + DETACHED + 3 * k,
          });
        }
      }
    });
  });
  return { spots: out.sort((p, q) => p.rank - q.rank), far, order };
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
  // An extent within 1 of `near` (the same test as inflating each extent, without the boxes).
  const reach = inflate(bg, 2);
  for (let e = 0; e < scene.edges.length; e++) {
    const points = scene.edges[e] as Point[];
    if (!boxesOverlap(scene.extents[e] as Box, reach)) continue;
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

/** The best spot found for one wrapping of a label, and what it costs (rank + covering). */
interface Found {
  spot: Candidate;
  cost: number;
  /** What the wrapping adds to the cost (see NARROWER). */
  penalty: number;
}

/** Whether the spot covers another edge, a caption, or leaves its own edge: crowded. */
const isCrowded = ({ spot, cost, penalty }: Found) =>
  cost - penalty - spot.rank >= OTHER_EDGE || spot.rank >= DETACHED;

/**
 * The candidate spot (see `candidates`) for a label wrapped as `block` that covers least: never a node,
 * another label or the drawing's edge where a spot avoids them, then as few other edges' lines
 * and group or phase outlines as possible, then the spot nearest the preferred one. Stops at
 * `bound`: a spot costing that much or more is of no use to the caller.
 */
function bestSpot(
  edge: Edge,
  own: number,
  block: TextBlock,
  background: (c: Point, w: number, h: number) => Box,
  scene: LabelScene,
  bound: number,
): Found | undefined {
  const points = scene.edges[own] as Point[];
  const w = block.box.width;
  const h = block.box.height;
  const { spots, far, order } = candidates(edge, points, w, h);
  let farAdded = false;
  // The stretch spots of the r-th segment tried are made only when the spots reach its
  // rank (r * 8): most labels settle on their first segment.
  const extra: Candidate[] = [];
  let nextSegment = 0;
  let k = 0;
  const next = (): Candidate | undefined => {
    for (;;) {
      const cheap = spots[k];
      const lazy = extra[0];
      const head = lazy && (!cheap || lazy.rank <= cheap.rank) ? lazy : cheap;
      if (nextSegment < order.length && (!head || head.rank >= nextSegment * 8 + 0.5)) {
        const made = stretchSpots(
          points,
          order[nextSegment] as number,
          nextSegment * 8,
          own,
          scene,
          w,
          h,
        );
        extra.push(...made);
        extra.sort((p, q) => p.rank - q.rank);
        nextSegment++;
        continue;
      }
      if (!farAdded && (!head || head.rank >= DETACHED)) {
        extra.push(...far);
        extra.sort((p, q) => p.rank - q.rank);
        farAdded = true;
        continue;
      }
      if (head === lazy) extra.shift();
      else k++;
      return head;
    }
  };
  let best: Found | undefined;
  let bestCost = bound;
  for (let spot = next(); spot; spot = next()) {
    // Spots come cheapest-rank first and covering never costs less than nothing.
    if (spot.rank >= bestCost) break;
    const c =
      spot.rank +
      cost(background(spot.center, w, h), own, spot.segment, scene, bestCost - spot.rank);
    if (c < bestCost) {
      best = { spot, cost: c, penalty: 0 };
      bestCost = c;
    }
  }
  return best;
}

/**
 * What a narrower wrapping of a label costs over its first: it is taken only where the first
 * has no spot clear of other lines (or one clear spot only far worse along its edge).
 */
const NARROWER = 40;

/**
 * Places an edge's label: at `labelAt` when given; otherwise on the best spot (see `bestSpot`)
 * for its `first` wrapping, or, when that one is crowded, for the `narrower` wrapping that
 * covers least. `labelDx`/`labelDy` shift the result either way. `own` is the edge's index in
 * `scene.edges`.
 */
export function placeEdgeLabel(
  edge: Edge,
  own: number,
  first: TextBlock,
  narrower: () => TextBlock[],
  scene: LabelScene,
): NonNullable<EdgeLayout["label"]> {
  const points = scene.edges[own] as Point[];
  const dx = edge.labelDx ?? 0;
  const dy = edge.labelDy ?? 0;
  const background = (c: Point, w: number, h: number): Box => ({
    x: round(c.x + dx - w / 2 - 4),
    y: round(c.y + dy - h / 2 - 2),
    width: round(w + 8),
    height: round(h + 4),
  });
  let block = first;
  let center: Point;
  if (edge.labelAt) center = edge.labelAt;
  else {
    // There is always a first spot: an infinite bound keeps it.
    let found = bestSpot(edge, own, first, background, scene, Number.POSITIVE_INFINITY) as Found;
    if (isCrowded(found)) {
      narrower().forEach((b, i) => {
        if (!isCrowded(found)) return;
        const penalty = (i + 1) * NARROWER;
        const f = bestSpot(edge, own, b, background, scene, found.cost - penalty);
        if (f && f.cost + penalty < found.cost) {
          found = { spot: f.spot, cost: f.cost + penalty, penalty };
          block = b;
        }
      });
    }
    const { spot } = found;
    center = spot.center;
    if (isCrowded(found)) {
      const a = points[spot.segment] as Point;
      const b = points[spot.segment + 1] as Point;
      scene.crowded.push({ a, b, width: block.box.width + 8, height: block.box.height + 4 });
    }
  }
  const w = block.box.width;
  const h = block.box.height;
  const bg = background(center, w, h);
  scene.placed.push(bg);
  return {
    ...block,
    box: { ...block.box, x: round(center.x + dx - w / 2), y: round(center.y + dy - h / 2) },
    background: bg,
  };
}
