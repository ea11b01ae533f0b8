/**
 * Lines arriving at a node too small to give each its own arrowhead (a final state's bull's
 * eye) join into one trunk just before it, so one arrowhead is drawn where several would stack.
 * The graph check (core/graph-check.ts) reads such lines as one: their heads meet at one point
 * from one direction, and only their last two segments overlap.
 */
import { arrowheadLength, WIDEST_STROKE } from "./arrowhead.js";
import { type Arrow, type Box, round } from "./geometry.js";
import type { Point } from "./model.js";
import { arrowAt } from "./translate.js";

interface Arriving {
  points: Point[];
  arrow: Arrow;
}

/** How far before the node the lines meet: the arrowhead's length and a little line. */
const TRUNK = Math.ceil(arrowheadLength(WIDEST_STROKE)) + 6;

/** Joins `lines` (all ending on `box`) that arrive on one side into one trunk per side. */
export function joinArrivals(lines: Arriving[], box: Box, headLimit: number): void {
  for (const side of bySide(lines)) {
    if (side.length < 2 || !stacks(side, headLimit)) continue;
    joinSide(side, box);
  }
}

/**
 * Arrivals on one side of `box` whose arrowheads would overlap are spread along the side, each
 * its own arrowhead at least `headLimit` from the next, in the order they come from (so the
 * spreading crosses none of them); where the side is too short for that, or a spread head would
 * land where a line leaves (`tails`), they join into one trunk with one arrowhead.
 */
export function spreadArrivals<A extends Arriving>(
  lines: A[],
  box: Box,
  headLimit: number,
  tails: Point[],
  clear: (line: A) => boolean = () => true,
): void {
  for (const side of bySide(lines)) {
    if (side.length < 2 || !stacks(side, headLimit)) continue;
    const before = side.map((line) => line.points);
    const kept = (ok: boolean) => ok && side.every(clear);
    if (kept(spreadSide(side, box, headLimit, tails))) continue;
    restore(side, before);
    joinSide(side, box);
    // A line moved through a box reads worse than two heads close together.
    if (!kept(true)) restore(side, before);
  }
}

/** The lines back on their points from before. */
function restore(side: Arriving[], points: Point[][]): void {
  side.forEach((line, i) => {
    line.points = points[i] as Point[];
    line.arrow = arrowAt(line.points);
  });
}

/**
 * Arrivals at a small round or pointed node (a final state) that would share one side: the
 * one coming from before the node across the way in turns to arrive on the side facing it, the
 * one from after on the opposite side, each with its own arrowhead at that side's middle, where
 * the turned line stays `clear` and lands an arrowhead away from every other end (`ends`). Two
 * or more still on one side then join into one trunk.
 */
export function arriveAround<A extends Arriving>(
  lines: A[],
  box: Box,
  headLimit: number,
  ends: Point[],
  clear: (line: A) => boolean = () => true,
): void {
  for (const side of bySide(lines)) {
    if (side.length < 2 || !stacks(side, headLimit)) continue;
    const { dx, dy } = (side[0] as A).arrow;
    const across = (line: A) => {
      const from = line.points[line.points.length - 3] ?? (line.points[0] as Point);
      return dx !== 0 ? from.y : from.x;
    };
    const ordered = [...side].sort((a, b) => across(a) - across(b));
    const taken = [...ends];
    const turn = (line: A, before: boolean) => {
      const old = line.points;
      const turned = turnToSide(old, box, dy, before);
      if (!turned) return false;
      const tip = turned[turned.length - 1] as Point;
      if (taken.some((p) => Math.hypot(p.x - tip.x, p.y - tip.y) < headLimit)) return false;
      line.points = turned;
      line.arrow = arrowAt(turned);
      if (clear(line)) {
        taken.push(tip);
        return true;
      }
      line.points = old;
      line.arrow = arrowAt(old);
      return false;
    };
    const first = ordered[0] as A;
    const last = ordered[ordered.length - 1] as A;
    const staying = ordered.filter(
      (line) => !((line === first && turn(line, true)) || (line === last && turn(line, false))),
    );
    if (staying.length > 1) joinSide(staying, box);
  }
}

/**
 * The line ending at the middle of a side across from the way it came in (`dy` not 0: it came
 * in vertically; `before`: the side facing lower coordinates), its run into the node turned there; undefined when its shape does
 * not allow it (a straight line, or it comes from the wrong side).
 */
function turnToSide(points: Point[], box: Box, dy: number, before: boolean): Point[] | undefined {
  const bend = points[points.length - 3];
  if (!bend) return undefined;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  if (dy !== 0) {
    const sideX = before ? box.x : box.x + box.width;
    if (before ? bend.x >= box.x : bend.x <= sideX) return undefined;
    const tip = { x: round(sideX), y: round(centre.y) };
    return withoutRepeats([...points.slice(0, -2), { x: bend.x, y: tip.y }, tip]);
  }
  const sideY = before ? box.y : box.y + box.height;
  if (before ? bend.y >= box.y : bend.y <= sideY) return undefined;
  const tip = { x: round(centre.x), y: round(sideY) };
  return withoutRepeats([...points.slice(0, -2), { x: tip.x, y: bend.y }, tip]);
}

/** The lines grouped by the side they arrive on (the way their arrowheads point). */
function bySide<A extends Arriving>(lines: A[]): A[][] {
  const sides = new Map<string, A[]>();
  for (const line of lines) {
    const key = `${line.arrow.dx},${line.arrow.dy}`;
    sides.set(key, [...(sides.get(key) ?? []), line]);
  }
  return [...sides.values()];
}

/** The point on the side the lines arrive on at `t` (0 … 1) along it. */
function onSide(box: Box, dx: number, dy: number, t: number): Point {
  return {
    x: round(dx !== 0 ? (dx > 0 ? box.x : box.x + box.width) : box.x + box.width * t),
    y: round(dy !== 0 ? (dy > 0 ? box.y : box.y + box.height) : box.y + box.height * t),
  };
}

function joinSide(side: Arriving[], box: Box): void {
  const { dx, dy } = (side[0] as Arriving).arrow;
  const tip = onSide(box, dx, dy, 0.5);
  for (const line of side) {
    line.points = intoTrunk(line.points, tip, dx, dy);
    line.arrow = arrowAt(line.points);
  }
}

/** Spreads the side's lines evenly along it; false (nothing changed) when they do not fit. */
function spreadSide(side: Arriving[], box: Box, headLimit: number, tails: Point[]): boolean {
  const { dx, dy } = (side[0] as Arriving).arrow;
  const length = dx !== 0 ? box.height : box.width;
  const step = length / side.length;
  if (step < headLimit) return false;
  // Where each line comes from, across the way in: the point before its last bend.
  const across = (line: Arriving) => {
    const from = line.points[line.points.length - 3] ?? (line.points[0] as Point);
    return dx !== 0 ? from.y : from.x;
  };
  const ordered = [...side].sort((a, b) => across(a) - across(b));
  const tips = ordered.map((_, i) => onSide(box, dx, dy, (i + 0.5) / side.length));
  const clash = tips.some((t) => tails.some((p) => Math.hypot(p.x - t.x, p.y - t.y) < headLimit));
  if (clash) return false;
  ordered.forEach((line, i) => {
    line.points = intoTrunk(line.points, tips[i] as Point, dx, dy);
    line.arrow = arrowAt(line.points);
  });
  return true;
}

/**
 * The line turned to end at `tip` (a trunk's, or its own place along the side): its last run slides across to the tip's line (the run before
 * it, across the way in, stretches to follow); a line of one run gets a jog a trunk before it.
 */
function intoTrunk(points: Point[], tip: Point, dx: number, dy: number): Point[] {
  const across = (p: Point): Point => (dx !== 0 ? { x: p.x, y: tip.y } : { x: tip.x, y: p.y });
  if (points.length > 2) {
    return withoutRepeats([
      ...points.slice(0, -2),
      across(points[points.length - 2] as Point),
      tip,
    ]);
  }
  const start = points[0] as Point;
  const join = { x: round(tip.x - dx * TRUNK), y: round(tip.y - dy * TRUNK) };
  const corner = dx !== 0 ? { x: join.x, y: start.y } : { x: start.x, y: join.y };
  return withoutRepeats([start, corner, join, tip]);
}

/** Whether any two of the lines' tips are closer than an arrowhead. */
function stacks(lines: Arriving[], limit: number): boolean {
  return lines.some((a, i) =>
    lines.some(
      (b, j) =>
        j > i && Math.hypot(a.arrow.tip.x - b.arrow.tip.x, a.arrow.tip.y - b.arrow.tip.y) < limit,
    ),
  );
}

/** The points without repeats and without the middle of three in one straight line. */
function withoutRepeats(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const prev = out[out.length - 2];
    if (prev && last) {
      const straight =
        (Math.abs(prev.x - last.x) < 0.01 && Math.abs(last.x - p.x) < 0.01) ||
        (Math.abs(prev.y - last.y) < 0.01 && Math.abs(last.y - p.y) < 0.01);
      if (straight) out.pop();
    }
    out.push(p);
  }
  return out;
}
