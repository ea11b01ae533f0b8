import { type Box, boxesOverlap, inflate, segmentHitsBox } from "../../src/core/geometry.js";
import type { Point } from "../../src/core/model.js";
import type { SvgScene } from "./svg-scene.js";

/**
 * Closer than this, two parallel lines read as one striped line (tracks are 6 apart; 4 apart,
 * with strokes up to 2.25 wide, looked like a double line).
 */
const MIN_SEPARATION = 5.5;
/**
 * Closer than this to an outline, a line reads as drawn on it: a phase's or group's border is
 * drawn darker (often dashed) than a lane's faint edge, which tracks may approach to 3 units;
 * tracks keep 4 units from a group's border and 9 from a phase's.
 */
const OUTLINE_NEAR = { lane: 2, phase: 3.5, group: 3.5 } as const;
/** Parallel lines sharing less than this length only meet (at a port or a crossing). */
const MIN_SHARED = 8;

const segments = (points: Point[]) =>
  points.slice(1).map((b, i) => [points[i] as Point, b] as const);

/** Distance from an axis-aligned segment to a box (0 when they meet). */
function segmentToBox(a: Point, b: Point, box: Box): number {
  const dx = Math.max(0, box.x - Math.max(a.x, b.x), Math.min(a.x, b.x) - (box.x + box.width));
  const dy = Math.max(0, box.y - Math.max(a.y, b.y), Math.min(a.y, b.y) - (box.y + box.height));
  return Math.hypot(dx, dy);
}

function lineToBox(points: Point[], box: Box): number {
  return Math.min(...segments(points).map(([a, b]) => segmentToBox(a, b, box)));
}

/** For two axis-aligned segments running the same way: their distance apart and shared length. */
function parallelRun(
  [a, b]: readonly [Point, Point],
  [c, d]: readonly [Point, Point],
): { apart: number; shared: number } | undefined {
  const vertical = (p: Point, q: Point) =>
    Math.abs(p.x - q.x) < 0.01 && Math.abs(p.y - q.y) >= 0.01;
  const horizontal = (p: Point, q: Point) =>
    Math.abs(p.y - q.y) < 0.01 && Math.abs(p.x - q.x) >= 0.01;
  if (vertical(a, b) && vertical(c, d)) {
    const shared =
      Math.min(Math.max(a.y, b.y), Math.max(c.y, d.y)) -
      Math.max(Math.min(a.y, b.y), Math.min(c.y, d.y));
    return { apart: Math.abs(a.x - c.x), shared };
  }
  if (horizontal(a, b) && horizontal(c, d)) {
    const shared =
      Math.min(Math.max(a.x, b.x), Math.max(c.x, d.x)) -
      Math.max(Math.min(a.x, b.x), Math.min(c.x, d.x));
    return { apart: Math.abs(a.y - c.y), shared };
  }
  return undefined;
}

function boxSides(box: Box): [Point, Point][] {
  const { x, y, width: w, height: h } = box;
  return [
    [
      { x, y },
      { x: x + w, y },
    ],
    [
      { x, y: y + h },
      { x: x + w, y: y + h },
    ],
    [
      { x, y },
      { x, y: y + h },
    ],
    [
      { x: x + w, y },
      { x: x + w, y: y + h },
    ],
  ];
}

/** How far into a lane's body a line goes before it counts as passing through the lane. */
const LANE_DEPTH = 2;

/**
 * The lanes an edge passes through that lie outside the span of lanes its two ends are in
 * (gaps between lanes excepted): a detour, since the lanes between the ends always offer a way.
 */
function throughLanes(scene: SvgScene, edge: SvgScene["edges"][number]): string[] {
  const lanes = scene.outlines.filter((o) => o.kind === "lane");
  const laneOf = (id: string) => {
    const box = scene.nodes.find((n) => n.id === id)?.box;
    if (!box) return -1;
    const cy = box.y + box.height / 2;
    return lanes.findIndex((l) => cy >= l.box.y && cy <= l.box.y + l.box.height);
  };
  const a = lanes[laneOf(edge.from)]?.box;
  const b = lanes[laneOf(edge.to)]?.box;
  if (!a || !b) return [];
  const top = Math.min(a.y, b.y);
  const bottom = Math.max(a.y + a.height, b.y + b.height);
  const ys = edge.points.map((p) => p.y);
  const y0 = Math.min(...ys);
  const y1 = Math.max(...ys);
  return lanes
    .filter(
      ({ box }) =>
        (box.y + box.height <= top || box.y >= bottom) &&
        y0 < box.y + box.height - LANE_DEPTH &&
        y1 > box.y + LANE_DEPTH,
    )
    .map((l) => l.id);
}

/**
 * Every routing and labelling defect in a rendered workflow, one line each, as
 * `<rule> <edge>: <what>`. Rules: label-detached (a label does not touch its own edge),
 * label-ambiguous (another edge is as near to a label as its own), shared-track (two edges run
 * closer than MIN_SEPARATION), on-outline (an edge runs along a lane, phase or group outline),
 * through-node (an edge crosses a node it does not start or end at), lane-detour (an edge
 * passes through a lane beyond those of its two ends), text-overlap (a label
 * covers a node, another label or a caption), label-over-arrow (a label covers an arrowhead).
 */
export function routingDefects(scene: SvgScene): string[] {
  const out: string[] = [];
  const edges = scene.edges;
  for (const label of scene.labels) {
    const own = edges.find((e) => e.id === label.edge);
    if (!own) {
      out.push(`label-detached ${label.edge}: no such edge`);
      continue;
    }
    const ownDistance = lineToBox(own.points, label.box);
    if (ownDistance > 0.5) {
      out.push(`label-detached ${own.id}: ${ownDistance.toFixed(1)} from its edge`);
    }
    for (const other of edges) {
      if (other === own) continue;
      const d = lineToBox(other.points, label.box);
      if (d <= ownDistance) out.push(`label-ambiguous ${own.id}: ${other.id} as near`);
      const arrow = inflate(other.arrow, -0.5);
      if (boxesOverlap(label.box, arrow)) out.push(`label-over-arrow ${own.id}: ${other.id}'s`);
    }
    if (boxesOverlap(label.box, inflate(own.arrow, -0.5))) {
      out.push(`label-over-arrow ${own.id}: its own`);
    }
    for (const n of scene.nodes) {
      if (boxesOverlap(label.box, n.box, 0.5)) out.push(`text-overlap ${own.id}: node ${n.id}`);
    }
    for (const c of scene.captions) {
      if (boxesOverlap(label.box, c.box, 0.5)) out.push(`text-overlap ${own.id}: caption ${c.id}`);
    }
    for (const l of scene.labels) {
      if (l !== label && l.edge > label.edge && boxesOverlap(label.box, l.box, 0.5)) {
        out.push(`text-overlap ${own.id}: label of ${l.edge}`);
      }
    }
  }
  edges.forEach((e, i) => {
    const segs = segments(e.points);
    for (const other of edges.slice(i + 1)) {
      let worst: { apart: number; shared: number } | undefined;
      for (const s of segs) {
        for (const t of segments(other.points)) {
          const run = parallelRun(s, t);
          if (run && run.apart < MIN_SEPARATION && run.shared > MIN_SHARED) {
            if (!worst || run.shared > worst.shared) worst = run;
          }
        }
      }
      if (worst) {
        out.push(
          `shared-track ${e.id}: with ${other.id}, ${worst.apart.toFixed(1)} apart for ${worst.shared.toFixed(0)}`,
        );
      }
    }
    for (const o of scene.outlines) {
      const near = OUTLINE_NEAR[o.kind];
      const on = segs.some((s) =>
        boxSides(o.box).some((side) => {
          const run = parallelRun(s, side);
          return run !== undefined && run.apart < near && run.shared > MIN_SHARED;
        }),
      );
      if (on) out.push(`on-outline ${e.id}: ${o.kind} ${o.id}`);
    }
    for (const lane of throughLanes(scene, e)) out.push(`lane-detour ${e.id}: through ${lane}`);
    segs.forEach(([a, b], k) => {
      for (const n of scene.nodes) {
        const isEnd = (n.id === e.from && k === 0) || (n.id === e.to && k === segs.length - 1);
        if (!isEnd && segmentHitsBox(a, b, inflate(n.box, -0.5))) {
          out.push(`through-node ${e.id}: ${n.id}`);
        }
      }
    });
  });
  return out;
}
