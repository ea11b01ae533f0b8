/**
 * The reading promises of a box-and-edge drawing (lifecycle, architecture, data-flow), judged
 * on its geometry: no two edges share a track, no two arrowheads stack, no edge leaves a box
 * where another arrives, the drawing's aspect stays within 1:2.5 … 2.5:1 (when the layout chose
 * its direction) and every note stays within one note-height of its box. Layouts report what
 * this finds as render warnings; the tests run it on every example and on generated corpora.
 */
import { ARROWHEAD_SPAN } from "./arrowhead.js";
import { type Box, round } from "./geometry.js";
import type { Point } from "./model.js";

export interface CheckedEdge {
  id: string;
  points: Point[];
}

interface CheckedNote {
  id: string;
  box: Box;
  /** The box the note belongs to. */
  of: Box;
}

export interface GraphDrawing {
  width: number;
  height: number;
  edges: CheckedEdge[];
  notes?: CheckedNote[];
  /** Whether the aspect is the layout's promise (no direction given). */
  checkAspect?: boolean;
}

export interface GraphFinding {
  rule: "shared-track" | "stacked-arrowheads" | "port-collision" | "aspect" | "note-distance";
  /** The edge or note the finding is about (the first of a pair); none for the aspect. */
  id?: string;
  message: string;
}

/** Two parallel runs of different edges closer than this read as one line. */
export const TRACK_LIMIT = 4;
/** An edge leaving closer than this to where another arrives reads as passing through. */
export const END_LIMIT = 4;
/**
 * Two arrowheads whose tips are closer than this overlap (the arrowhead's own size, not the
 * 4 units that let three heads on one final state pass).
 */
export const HEAD_LIMIT = ARROWHEAD_SPAN;
/** Runs overlapping by less than this (where lines cross or turn) do not count. */
export const MIN_RUN = 3;
export const ASPECT_LIMIT = 2.5;

export interface Run {
  edge: string;
  /** The segment's index in its edge's points (from points[index] to points[index + 1]). */
  index: number;
  /** The fixed coordinate and the span of the varying one. */
  at: number;
  lo: number;
  hi: number;
}

/** Every horizontal (h) and vertical (v) segment of the edges, as runs. */
export function runsOf(edges: CheckedEdge[]): { h: Run[]; v: Run[] } {
  const h: Run[] = [];
  const v: Run[] = [];
  for (const e of edges) {
    for (let i = 1; i < e.points.length; i++) {
      const a = e.points[i - 1] as Point;
      const b = e.points[i] as Point;
      if (Math.abs(a.y - b.y) < 0.01) {
        h.push({
          edge: e.id,
          index: i - 1,
          at: a.y,
          lo: Math.min(a.x, b.x),
          hi: Math.max(a.x, b.x),
        });
      } else if (Math.abs(a.x - b.x) < 0.01) {
        v.push({
          edge: e.id,
          index: i - 1,
          at: a.x,
          lo: Math.min(a.y, b.y),
          hi: Math.max(a.y, b.y),
        });
      }
    }
  }
  return { h, v };
}

/**
 * Whether two edges are one trunk (core/trunk.ts): they arrive at one point along one line, so
 * one arrowhead is drawn. `a` and `b` are segment indices: only their last segments (the trunk)
 * may overlap.
 */
export function oneTrunk(x: CheckedEdge, y: CheckedEdge, a?: number, b?: number): boolean {
  const [xTip, xBefore] = [x.points[x.points.length - 1], x.points[x.points.length - 2]];
  const [yTip, yBefore] = [y.points[y.points.length - 1], y.points[y.points.length - 2]];
  if (!xTip || !xBefore || !yTip || !yBefore) return false;
  if (Math.hypot(xTip.x - yTip.x, xTip.y - yTip.y) >= 0.5) return false;
  // Both last runs on the tip's line, coming in from the same side.
  const vertical = (p: Point, q: Point) => Math.abs(p.x - q.x) < 0.01;
  const dir = (p: Point, q: Point) => Math.sign(q.x - p.x) + 2 * Math.sign(q.y - p.y);
  if (vertical(xBefore, xTip) !== vertical(yBefore, yTip)) return false;
  if (dir(xBefore, xTip) !== dir(yBefore, yTip)) return false;
  const last = (e: CheckedEdge, i?: number) => i === undefined || i === e.points.length - 2;
  return last(x, a) && last(y, b);
}

function sharedTracks(edges: CheckedEdge[]): GraphFinding[] {
  const out: GraphFinding[] = [];
  const seen = new Set<string>();
  const byId = new Map(edges.map((e) => [e.id, e]));
  for (const list of Object.values(runsOf(edges))) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 0; i < list.length; i++) {
      const a = list[i] as Run;
      for (let j = i + 1; j < list.length; j++) {
        const b = list[j] as Run;
        if (b.at - a.at >= TRACK_LIMIT) break;
        if (a.edge === b.edge) continue;
        const overlap = Math.min(a.hi, b.hi) - Math.max(a.lo, b.lo);
        const key = [a.edge, b.edge].sort().join(" ");
        if (overlap < MIN_RUN || seen.has(key)) continue;
        const [x, y] = [byId.get(a.edge), byId.get(b.edge)] as [CheckedEdge, CheckedEdge];
        if (oneTrunk(x, y, a.index, b.index)) continue;
        seen.add(key);
        out.push({
          rule: "shared-track",
          id: a.edge,
          message: `edges ${a.edge} and ${b.edge} run ${round(b.at - a.at)} apart for ${round(overlap)} units: one reads as the other`,
        });
      }
    }
  }
  return out;
}

function ends(edges: CheckedEdge[]): GraphFinding[] {
  const out: GraphFinding[] = [];
  const near = (p: Point, q: Point, limit = END_LIMIT) => Math.hypot(p.x - q.x, p.y - q.y) < limit;
  for (let i = 0; i < edges.length; i++) {
    const a = edges[i] as CheckedEdge;
    const aHead = a.points[a.points.length - 1];
    const aTail = a.points[0];
    if (!aHead || !aTail) continue;
    for (let j = 0; j < edges.length; j++) {
      const b = edges[j] as CheckedEdge;
      const bHead = b.points[b.points.length - 1];
      const bTail = b.points[0];
      if (i === j || !bHead || !bTail) continue;
      if (j > i && near(aHead, bHead, HEAD_LIMIT) && !oneTrunk(a, b)) {
        out.push({
          rule: "stacked-arrowheads",
          id: a.id,
          message: `edges ${a.id} and ${b.id} arrive at one point: their arrowheads stack`,
        });
      }
      if (near(aTail, bHead)) {
        out.push({
          rule: "port-collision",
          id: a.id,
          message: `edge ${a.id} leaves where edge ${b.id} arrives: it reads as passing through`,
        });
      }
    }
  }
  return out;
}

/** Everything the drawing breaks of the promises above (none: it keeps them all). */
export function checkGraphDrawing(d: GraphDrawing): GraphFinding[] {
  const found = [...sharedTracks(d.edges), ...ends(d.edges)];
  const ratio = d.width / Math.max(1, d.height);
  if (d.checkAspect && (ratio > ASPECT_LIMIT || ratio < 1 / ASPECT_LIMIT)) {
    found.push({
      rule: "aspect",
      message: `the drawing is ${round(d.width)} × ${round(d.height)}, outside 1:${ASPECT_LIMIT} … ${ASPECT_LIMIT}:1; set meta.direction to draw it the other way`,
    });
  }
  for (const n of d.notes ?? []) {
    const gap = Math.max(
      n.of.x - (n.box.x + n.box.width),
      n.box.x - (n.of.x + n.of.width),
      n.of.y - (n.box.y + n.box.height),
      n.box.y - (n.of.y + n.of.height),
    );
    if (gap > n.box.height) {
      found.push({
        rule: "note-distance",
        id: n.id,
        message: `note ${n.id} is ${round(gap)} units from its state, more than its own height`,
      });
    }
  }
  return found;
}
