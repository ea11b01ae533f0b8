/**
 * The last pass of the graph layout: lines that would read as one are moved apart. A run of
 * one edge lying on another's track (closer than the checker's TRACK_LIMIT, e.g. two lines
 * rerouted round one box), an edge arriving where another arrives (stacked arrowheads) or
 * leaves (in/out collision) is shifted sideways by one track, its neighbouring segments
 * stretched to follow; a shift that would cross a box, leave its end's side, take a line off
 * its label or land on a third line is not made.
 */

import { type Box, inflate, segmentHitsBox } from "../geometry.js";
import {
  type CheckedEdge,
  END_LIMIT,
  HEAD_LIMIT,
  MIN_RUN,
  type Run,
  runsOf,
  TRACK_LIMIT,
} from "../graph-check.js";
import type { Point } from "../model.js";

export interface NudgeEdge {
  id: string;
  points: Point[];
  label?: Box;
  from: Box;
  to: Box;
}

/** How far a shifted run moves, in tracks of this size (then twice, then three times). */
const STEP = 8;
const PASSES = 6;

/** Moves lines apart in place; `boxes` are the drawn boxes no line may cross (ends excepted). */
export function nudgeApart(edges: NudgeEdge[], boxes: Box[]): void {
  const byId = new Map(edges.map((e) => [e.id, e]));
  for (let pass = 0; pass < PASSES; pass++) {
    const conflicts = findConflicts(edges);
    if (conflicts.length === 0) return;
    for (const [edgeId, otherId, index, away] of conflicts) {
      const e = byId.get(edgeId) as NudgeEdge;
      if (tryShift(e, index, away, edges, boxes)) continue;
      // The later edge cannot move: move the other one's run instead, the other way.
      const other = byId.get(otherId) as NudgeEdge;
      const theirs = runIndexNear(other, e, index);
      if (theirs !== undefined) tryShift(other, theirs, -away, edges, boxes);
    }
  }
}

/**
 * [edge to move, the other edge, its segment, preferred sign] for each pair of lines that read
 * as one: the later edge of the pair moves.
 */
function findConflicts(edges: CheckedEdge[]): [string, string, number, number][] {
  const order = new Map(edges.map((e, i) => [e.id, i]));
  const out: [string, string, number, number][] = [];
  const later = (a: Run, b: Run) =>
    (order.get(a.edge) as number) > (order.get(b.edge) as number) ? [a, b] : [b, a];
  for (const list of Object.values(runsOf(edges))) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i] as Run;
        const b = list[j] as Run;
        if (b.at - a.at >= TRACK_LIMIT) break;
        if (a.edge === b.edge) continue;
        if (Math.min(a.hi, b.hi) - Math.max(a.lo, b.lo) < MIN_RUN) continue;
        const [move, stay] = later(a, b) as [Run, Run];
        out.push([move.edge, stay.edge, move.index, move.at >= stay.at ? 1 : -1]);
      }
    }
  }
  // Ends: the later of two heads at one point moves; a tail on another's head moves.
  for (let i = 0; i < edges.length; i++) {
    const a = edges[i] as CheckedEdge;
    for (let j = 0; j < edges.length; j++) {
      const b = edges[j] as CheckedEdge;
      if (i === j) continue;
      const aHead = a.points[a.points.length - 1] as Point;
      const bHead = b.points[b.points.length - 1] as Point;
      const aTail = a.points[0] as Point;
      if (j < i && nearHeads(aHead, bHead)) {
        out.push([
          a.id,
          b.id,
          a.points.length - 2,
          sign(aHead, bHead, a.points, a.points.length - 2),
        ]);
      }
      if (near(aTail, bHead)) out.push([a.id, b.id, 0, sign(aTail, bHead, a.points, 0)]);
    }
  }
  return out;
}

/** The run of `other` lying on segment `index` of `e` (or, for ends, its end segment). */
function runIndexNear(other: NudgeEdge, e: NudgeEdge, index: number): number | undefined {
  const a = e.points[index] as Point;
  const b = e.points[index + 1] as Point;
  const h = Math.abs(a.y - b.y) < 0.01;
  for (let i = 0; i + 1 < other.points.length; i++) {
    const p = other.points[i] as Point;
    const q = other.points[i + 1] as Point;
    const same = h
      ? Math.abs(p.y - q.y) < 0.01 && Math.abs(p.y - a.y) < TRACK_LIMIT
      : Math.abs(p.x - q.x) < 0.01 && Math.abs(p.x - a.x) < TRACK_LIMIT;
    if (same) return i;
  }
  const head = other.points.length - 2;
  return nearHeads(other.points[head + 1] as Point, b) ? head : undefined;
}

const near = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y) < END_LIMIT;
/** Two arrowheads overlap closer than this: the checker's own measure. */
const nearHeads = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y) < HEAD_LIMIT;

function sign(p: Point, q: Point, points: Point[], index: number): number {
  const d = horizontal(points, index) ? p.y - q.y : p.x - q.x;
  return d >= 0 ? 1 : -1;
}

function horizontal(points: Point[], index: number): boolean {
  const a = points[index] as Point;
  const b = points[index + 1] as Point;
  return Math.abs(a.y - b.y) < 0.01;
}

function tryShift(
  e: NudgeEdge,
  index: number,
  away: number,
  edges: NudgeEdge[],
  boxes: Box[],
): boolean {
  if (index < 0 || index >= e.points.length - 1) return false;
  for (const k of [1, -1, 2, -2, 3, -3, 4, -4]) {
    const moved = shifted(e.points, index, away * k * STEP);
    if (moved && fits(e, moved, index, edges, boxes)) {
      e.points = moved;
      return true;
    }
  }
  return false;
}

/** The points with segment `index` moved sideways by `d` (undefined: it is not axis-aligned). */
function shifted(points: Point[], index: number, d: number): Point[] | undefined {
  const a = points[index] as Point;
  const b = points[index + 1] as Point;
  const h = Math.abs(a.y - b.y) < 0.01;
  if (!h && Math.abs(a.x - b.x) >= 0.01) return undefined;
  const move = (p: Point) => (h ? { x: p.x, y: p.y + d } : { x: p.x + d, y: p.y });
  const out = points.map((p) => ({ ...p }));
  out[index] = move(a);
  out[index + 1] = move(b);
  return out;
}

function fits(
  e: NudgeEdge,
  moved: Point[],
  index: number,
  edges: NudgeEdge[],
  boxes: Box[],
): boolean {
  const last = moved.length - 1;
  // Ends stay on their box's side, a little in from its corners.
  if (!onSide(moved[0] as Point, e.from) || !onSide(moved[last] as Point, e.to)) return false;
  // The label stays on its line.
  if (
    e.label &&
    !moved.some((p, i) => i > 0 && touches(moved[i - 1] as Point, p, e.label as Box))
  ) {
    return false;
  }
  const lo = Math.max(0, index - 1);
  const hi = Math.min(last, index + 2);
  // Nor may it cross a box, or come near another edge's label (it would read as that one's).
  const labels = edges.flatMap((o) => (o.id !== e.id && o.label ? [inflate(o.label, 2)] : []));
  for (let i = lo; i < hi; i++) {
    const p = moved[i] as Point;
    const q = moved[i + 1] as Point;
    for (const b of boxes) {
      // Its own ends it may touch, never enter.
      const own = b === e.from || b === e.to;
      if (segmentHitsBox(p, q, inflate(b, own ? -1 : 2))) return false;
    }
    for (const b of [e.from, e.to]) if (segmentHitsBox(p, q, inflate(b, -1))) return false;
    if (labels.some((b) => segmentHitsBox(p, q, b))) return false;
  }
  // Fewer lines read as this one than before.
  return readAsOne(e.id, moved, edges) < readAsOne(e.id, e.points, edges);
}

/** How many other lines `points` (edge `id`) would read as: shared runs and shared ends. */
function readAsOne(id: string, points: Point[], edges: CheckedEdge[]): number {
  const mine = runsOf([{ id, points }]);
  let n = 0;
  const head = points[points.length - 1] as Point;
  const tail = points[0] as Point;
  for (const o of edges) {
    if (o.id === id) continue;
    const theirs = runsOf([o]);
    for (const k of ["h", "v"] as const) {
      for (const a of mine[k]) {
        for (const b of theirs[k]) {
          if (Math.abs(a.at - b.at) >= TRACK_LIMIT) continue;
          if (Math.min(a.hi, b.hi) - Math.max(a.lo, b.lo) >= MIN_RUN) n++;
        }
      }
    }
    const oHead = o.points[o.points.length - 1] as Point;
    const oTail = o.points[0] as Point;
    if (nearHeads(head, oHead) || near(tail, oHead) || near(head, oTail)) n++;
  }
  return n;
}

function onSide(p: Point, box: Box): boolean {
  const m = Math.min(3, box.width / 4, box.height / 4);
  const inX = p.x >= box.x + m - 0.01 && p.x <= box.x + box.width - m + 0.01;
  const inY = p.y >= box.y + m - 0.01 && p.y <= box.y + box.height - m + 0.01;
  const onX = Math.abs(p.x - box.x) < 0.5 || Math.abs(p.x - box.x - box.width) < 0.5;
  const onY = Math.abs(p.y - box.y) < 0.5 || Math.abs(p.y - box.y - box.height) < 0.5;
  return (onX && inY) || (onY && inX);
}

function touches(a: Point, b: Point, box: Box): boolean {
  return segmentHitsBox(a, b, inflate(box, 1));
}
