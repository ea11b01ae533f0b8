import { type Arrow, type Box, round } from "./geometry.js";
import type { Point } from "./model.js";

/**
 * Moves what a layout engine placed from its own origin into the drawing (by dx, dy), rounded
 * like every number of a layout.
 */
export function translateBy(dx: number, dy: number) {
  return {
    box: (b: Box): Box => ({
      x: round(b.x + dx),
      y: round(b.y + dy),
      width: round(b.width),
      height: round(b.height),
    }),
    point: (p: Point): Point => ({ x: round(p.x + dx), y: round(p.y + dy) }),
  };
}

/** Where a polyline's arrow ends (its last point) and the way it points, as a unit vector. */
export function arrowAt(points: Point[]): Arrow {
  const tip = points[points.length - 1] as Point;
  const before = points[points.length - 2] as Point;
  const len = Math.hypot(tip.x - before.x, tip.y - before.y) || 1;
  return { tip, dx: round((tip.x - before.x) / len), dy: round((tip.y - before.y) / len) };
}
