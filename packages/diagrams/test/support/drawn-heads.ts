import { ARROWHEAD_SPAN } from "../../src/core/arrowhead.js";
import type { LaidOut } from "../../src/core/diagram-type.js";
import { oneTrunk } from "../../src/core/graph-check.js";
import type { Point } from "../../src/core/model.js";
import type { GraphType } from "./graph-corpus.js";

/** A drawn line of a graph type: its ends' ids and its polyline. */
export interface DrawnLine {
  id: string;
  from: string;
  to: string;
  points: Point[];
}

/** The lines a graph type's layout draws (transitions, relationships or flows). */
export function drawnLines(type: GraphType, laid: LaidOut): DrawnLine[] {
  const l = laid as unknown as Record<string, DrawnLine[]>;
  if (type === "lifecycle") return l.transitions ?? [];
  return (type === "architecture" ? l.relationships : l.flows) ?? [];
}

/**
 * Pairs of arrowheads drawn at one point: tips closer than one arrowhead's own size (so the
 * heads overlap whichever way they point), unless the two lines are one trunk drawn with one
 * arrowhead (core/trunk.ts). Read from the geometry alone, not from the layout's warnings.
 */
export function sharedHeads(lines: DrawnLine[]): string[] {
  const found: string[] = [];
  lines.forEach((a, i) => {
    for (const b of lines.slice(i + 1)) {
      const [p, q] = [a.points[a.points.length - 1], b.points[b.points.length - 1]];
      if (!p || !q || Math.hypot(p.x - q.x, p.y - q.y) >= ARROWHEAD_SPAN) continue;
      if (!oneTrunk(a, b)) found.push(`${a.id} and ${b.id} at ${p.x},${p.y}`);
    }
  });
  return found;
}

/**
 * Lines gone the long way round (past a boundary rather than through it): longer than half
 * again their ends' Manhattan distance plus 200 units (a turn round one box on the way), as
 * "id: length against distance".
 */
export function longWayRound(lines: Pick<DrawnLine, "id" | "points">[]): string[] {
  const found: string[] = [];
  for (const { id, points } of lines) {
    let length = 0;
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1] as Point, points[i] as Point];
      length += Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    }
    const [a, b] = [points[0], points[points.length - 1]];
    if (!a || !b) continue;
    const distance = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    if (length > 1.5 * distance + 200) found.push(`${id}: ${length} against ${distance}`);
  }
  return found;
}
