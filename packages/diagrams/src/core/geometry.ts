import type { Point, Side } from "./model.js";

/** An axis-aligned rectangle in diagram units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where a line's arrowhead ends (the tip) and the way it points, as a unit vector. */
export interface Arrow {
  tip: Point;
  dx: number;
  dy: number;
}

/** Rounds to 1/100 of a unit so every number in the output is the same on every machine. */
export function round(n: number): number {
  const r = Math.round(n * 100) / 100;
  return r === 0 ? 0 : r;
}

/** The smallest box holding every point (a polyline's extent). */
export function boundsOf(points: readonly Point[]): Box {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

export function inflate(box: Box, by: number): Box {
  return { x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by };
}

/** True when the interiors of two boxes share some area (touching edges do not count). */
export function boxesOverlap(a: Box, b: Box, tolerance = 0): boolean {
  return (
    a.x + a.width > b.x + tolerance &&
    b.x + b.width > a.x + tolerance &&
    a.y + a.height > b.y + tolerance &&
    b.y + b.height > a.y + tolerance
  );
}

/** True when `inner` lies inside `outer` (edges may touch). */
export function boxContains(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** True when `a` lies inside `b`: `boxContains(b, a)`, in the order a test reads best. */
export function boxInside(a: Box, b: Box): boolean {
  return boxContains(b, a);
}

/** True when the axis-aligned segment a–b passes through the interior of `box`. */
export function segmentHitsBox(a: Point, b: Point, box: Box): boolean {
  const minX = Math.min(a.x, b.x);
  const maxX = Math.max(a.x, b.x);
  const minY = Math.min(a.y, b.y);
  const maxY = Math.max(a.y, b.y);
  return maxX > box.x && minX < box.x + box.width && maxY > box.y && minY < box.y + box.height;
}

/** True when one of the four sides of `box` passes through the interior of `label`. */
export function outlineCrosses(label: Box, box: Box): boolean {
  const { x, y, width: w, height: h } = box;
  return (
    segmentHitsBox({ x, y }, { x: x + w, y }, label) ||
    segmentHitsBox({ x, y: y + h }, { x: x + w, y: y + h }, label) ||
    segmentHitsBox({ x, y }, { x, y: y + h }, label) ||
    segmentHitsBox({ x: x + w, y }, { x: x + w, y: y + h }, label)
  );
}

/**
 * True when the segment a–b, at any angle, meets the closed box (passes through it or touches
 * its border): a label "touches its own line" when its box meets one of the line's segments.
 */
export function segmentMeetsBox(a: Point, b: Point, box: Box): boolean {
  // Liang–Barsky: clip the segment's parameter range [0, 1] against each side's half-plane.
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const sides: [number, number][] = [
    [-dx, a.x - box.x],
    [dx, box.x + box.width - a.x],
    [-dy, a.y - box.y],
    [dy, box.y + box.height - a.y],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/** Outward unit direction of a side. */
export function sideDir(side: Side): Point {
  switch (side) {
    case "left":
      return { x: -1, y: 0 };
    case "right":
      return { x: 1, y: 0 };
    case "top":
      return { x: 0, y: -1 };
    case "bottom":
      return { x: 0, y: 1 };
  }
}

/** Drops repeated points and merges collinear runs, leaving only the corners. */
export function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    out.push(p);
  }
  for (let i = out.length - 2; i >= 1; i--) {
    const a = out[i - 1] as Point;
    const b = out[i] as Point;
    const c = out[i + 1] as Point;
    // Only a point between its neighbours goes; a point where the line turns back stays.
    const vertical =
      Math.abs(a.x - b.x) < 0.01 && Math.abs(b.x - c.x) < 0.01 && (b.y - a.y) * (c.y - b.y) >= 0;
    const horizontal =
      Math.abs(a.y - b.y) < 0.01 && Math.abs(b.y - c.y) < 0.01 && (b.x - a.x) * (c.x - b.x) >= 0;
    if (vertical || horizontal) out.splice(i, 1);
  }
  return out;
}

/**
 * How many times the orthogonal polyline crosses the outline of `box` (into or out of it): a
 * line through a box it does not join enters and leaves once (2). A line ending on the outline
 * or running along it does not cross there (see `runsAlongOutline`).
 */
export function outlineCrossings(points: readonly Point[], box: Box): number {
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  const strictly = (v: number, lo: number, hi: number) => v > lo && v < hi;
  let n = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    const [lx, hx] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
    const [ly, hy] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
    if (Math.abs(a.y - b.y) < 0.01 && strictly(a.y, box.y, y1)) {
      if (strictly(box.x, lx, hx)) n++;
      if (strictly(x1, lx, hx)) n++;
    } else if (Math.abs(a.x - b.x) < 0.01 && strictly(a.x, box.x, x1)) {
      if (strictly(box.y, ly, hy)) n++;
      if (strictly(y1, ly, hy)) n++;
    }
  }
  return n;
}

/**
 * True when a run of the orthogonal polyline lies along a side of `box`, closer to it than
 * `near` and beside it for at least `minRun`: the line reads as the box's border (or the border
 * as the line), the way two lines on one track read as one.
 */
export function runsAlongOutline(
  points: readonly Point[],
  box: Box,
  near: number,
  minRun: number,
): boolean {
  const x1 = box.x + box.width;
  const y1 = box.y + box.height;
  const beside = (lo: number, hi: number, from: number, to: number) =>
    Math.min(hi, to) - Math.max(lo, from) >= minRun;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    if (Math.abs(a.y - b.y) < 0.01) {
      const onSide = Math.abs(a.y - box.y) < near || Math.abs(a.y - y1) < near;
      if (onSide && beside(Math.min(a.x, b.x), Math.max(a.x, b.x), box.x, x1)) return true;
    } else if (Math.abs(a.x - b.x) < 0.01) {
      const onSide = Math.abs(a.x - box.x) < near || Math.abs(a.x - x1) < near;
      if (onSide && beside(Math.min(a.y, b.y), Math.max(a.y, b.y), box.y, y1)) return true;
    }
  }
  return false;
}
