import { type Box, round } from "../../core/geometry.js";
import type { Point } from "../../core/model.js";
import { enclosing } from "./model.js";

/** The trust boundaries a flow crosses: those it leaves (innermost first), then enters. */
interface BoundariesCrossed {
  out: string[];
  into: string[];
}

/**
 * What a flow from `from` to `to` crosses: every boundary enclosing one end but not the other.
 * Out of the source's, innermost first, then into the target's, outermost first: the order
 * the data meets them.
 */
export function boundaryCrossings(
  from: string,
  to: string,
  parentOf: ReadonlyMap<string, string | undefined>,
): BoundariesCrossed {
  const a = enclosing(from, parentOf);
  const b = enclosing(to, parentOf);
  return {
    out: a.filter((id) => !b.includes(id)),
    into: b.filter((id) => !a.includes(id)).reverse(),
  };
}

/** Where a drawn flow crosses a boundary it leaves or enters. */
export interface Crossing {
  boundary: string;
  direction: "out" | "in";
  point: Point;
}

/** Where the axis-aligned segment a–b meets the outline of `box`, in order along a–b. */
function outlineHits(a: Point, b: Point, box: Box): Point[] {
  const hits: Point[] = [];
  const x0 = box.x;
  const x1 = box.x + box.width;
  const y0 = box.y;
  const y1 = box.y + box.height;
  const within = (v: number, lo: number, hi: number) =>
    v >= Math.min(lo, hi) - 0.01 && v <= Math.max(lo, hi) + 0.01;
  if (Math.abs(a.x - b.x) < 0.01) {
    // Vertical: meets the top and bottom sides.
    if (a.x > x0 && a.x < x1) {
      for (const y of [y0, y1]) if (within(y, a.y, b.y)) hits.push({ x: a.x, y });
    }
  } else if (Math.abs(a.y - b.y) < 0.01) {
    if (a.y > y0 && a.y < y1) {
      for (const x of [x0, x1]) if (within(x, a.x, b.x)) hits.push({ x, y: a.y });
    }
  }
  const d = (p: Point) => Math.abs(p.x - a.x) + Math.abs(p.y - a.y);
  return hits.sort((p, q) => d(p) - d(q));
}

/**
 * Where the line crosses each boundary it leaves or enters: the last time it passes the border
 * of a boundary it leaves, the first time it passes one it enters.
 */
export function crossingPoints(
  points: Point[],
  crossed: BoundariesCrossed,
  boxes: ReadonlyMap<string, Box>,
): Crossing[] {
  const out: Crossing[] = [];
  const along = (id: string): Point[] => {
    const box = boxes.get(id);
    if (!box) return [];
    const hits: Point[] = [];
    for (let i = 1; i < points.length; i++) {
      hits.push(...outlineHits(points[i - 1] as Point, points[i] as Point, box));
    }
    return hits;
  };
  for (const id of crossed.out) {
    const hit = along(id).at(-1);
    if (hit) out.push({ boundary: id, direction: "out", point: rounded(hit) });
  }
  for (const id of crossed.into) {
    const hit = along(id)[0];
    if (hit) out.push({ boundary: id, direction: "in", point: rounded(hit) });
  }
  return out;
}

const rounded = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });
