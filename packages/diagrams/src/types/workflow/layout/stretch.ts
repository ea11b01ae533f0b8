import { round } from "../../../core/geometry.js";
import type { Edge, Point } from "../model.js";

/**
 * The grid lines along one axis: the middle of each gap (`gaps[i]` before cell i, the last
 * after the last cell, the first gap's middle at `line0`) and, for each cell (`sizes` long),
 * its start, the start and end of the band its nodes fill (`content` long, centred where
 * `middle` puts it) and its end. Mapping between two such sets moves gutters with gutters and
 * node bands with node bands, which keep their size.
 */
export function gridLines(
  line0: number,
  sizes: number[],
  gaps: number[],
  content: number[],
  middle: (cellStart: number, size: number, cell: number) => number,
): number[] {
  const out: number[] = [line0];
  let at = line0 + (gaps[0] ?? 0) / 2;
  sizes.forEach((size, i) => {
    const mid = middle(at, size, i);
    const half = (content[i] ?? 0) / 2;
    const gap = gaps[i + 1] ?? 0;
    out.push(at, mid - half, mid + half, at + size, at + size + gap / 2);
    at += size + gap;
  });
  return out;
}

/** Maps `v` from the lines `from` to the lines `to`, linearly between them, shifted beyond. */
function stretch(v: number, from: number[], to: number[]): number {
  const n = from.length;
  if (n === 0) return v;
  // On lines that coincide in `from` (a gap with no width): the middle of where they went.
  const first = from.findIndex((f) => Math.abs(f - v) < 0.01);
  if (first >= 0) {
    let last = first;
    while (last + 1 < n && Math.abs((from[last + 1] as number) - v) < 0.01) last++;
    return round(((to[first] as number) + (to[last] as number)) / 2);
  }
  if (v <= (from[0] as number)) return v + (to[0] as number) - (from[0] as number);
  for (let i = 1; i < n; i++) {
    const a = from[i - 1] as number;
    const b = from[i] as number;
    if (v <= b) {
      const t = b > a ? (v - a) / (b - a) : 0;
      return round((to[i - 1] as number) + t * ((to[i] as number) - (to[i - 1] as number)));
    }
  }
  return v + (to[n - 1] as number) - (from[n - 1] as number);
}

/**
 * An edge's coordinates (`via`, `channelX`, `channelY`, `labelAt`) moved from the natural grid,
 * where the description defines them, onto the grid as drawn (widened or heightened to fill a
 * meta.viewBox), so that they keep their place between the same columns and lanes.
 */
export function stretchMap(
  fromX: number[],
  toX: number[],
  fromY: number[],
  toY: number[],
): (edge: Edge) => Edge {
  const same = (a: number[], b: number[]) =>
    a.every((v, i) => Math.abs(v - (b[i] as number)) < 0.01);
  if (same(fromX, toX) && same(fromY, toY)) return (edge) => edge;
  const point = (p: Point): Point => ({ x: stretch(p.x, fromX, toX), y: stretch(p.y, fromY, toY) });
  return (edge) => {
    const out: Edge = { ...edge };
    if (edge.via) out.via = edge.via.map(point);
    if (edge.labelAt) out.labelAt = point(edge.labelAt);
    if (edge.channelX !== undefined) out.channelX = stretch(edge.channelX, fromX, toX);
    if (edge.channelY !== undefined) out.channelY = stretch(edge.channelY, fromY, toY);
    return out;
  };
}
