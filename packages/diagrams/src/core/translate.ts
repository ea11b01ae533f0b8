import { type Arrow, type Box, round } from "./geometry.js";
import type { Point } from "./model.js";
import type { BackedLabel } from "./svg/boxes.js";
import { place, type TextBlock } from "./text/block.js";

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

/** A line's label: `block` centred on the background box the layout engine kept for it. */
export function labelOn(block: TextBlock, background: Box): BackedLabel {
  const text = place(
    block,
    background.x + (background.width - block.box.width) / 2,
    background.y + (background.height - block.box.height) / 2,
  );
  return { ...text, background };
}
