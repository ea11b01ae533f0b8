/**
 * Routes lines around boxes: an orthogonal shortest path with a price on each bend (A*) over a
 * sparse grid made of every obstacle's outline, pushed out by a margin, and its centre lines, so
 * no step can jump over an obstacle. The layered layout routes most edges well between layers;
 * this takes over only the ones that would pass through a box (edges leaving or entering a
 * compound node cross their own region's other nodes on the way). Pure and deterministic.
 */
import {
  type Box,
  boxesOverlap,
  inflate,
  outlineCrosses,
  segmentHitsBox,
  simplify,
} from "../geometry.js";
import type { Point } from "../model.js";

/** Clearance between a rerouted line and any box it passes. */
const MARGIN = 10;
/** What a bend costs, in units of length: a few bends saved beat a slightly shorter line. */
const BEND = 40;

export interface RouteRequest {
  /** The boxes the line joins (its ends). */
  from: Box;
  to: Box;
  /** Boxes it must not cross. */
  obstacles: Box[];
  /** How many rerouted lines already leave or enter each end, to keep their ports apart. */
  fromUsed: number;
  toUsed: number;
}

type Dir = 0 | 1 | 2 | 3; // right, down, left, up
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/** True when the polyline passes through any of `boxes`. */
export function pathHits(points: Point[], boxes: Box[]): boolean {
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    for (const box of boxes) if (segmentHitsBox(a, b, box)) return true;
  }
  return false;
}

function sortedUnique(values: number[]): number[] {
  const s = [...new Set(values.map((v) => Math.round(v * 100) / 100))];
  return s.sort((a, b) => a - b);
}

function indexOf(axis: number[], v: number): number {
  const r = Math.round(v * 100) / 100;
  let lo = 0;
  let hi = axis.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = axis[mid] as number;
    if (m === r) return mid;
    if (m < r) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The first index of `axis` at or above `v`. */
function lowerBound(axis: number[], v: number): number {
  let lo = 0;
  let hi = axis.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((axis[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Port {
  at: Point;
  seed: Point;
  /** Direction from the port outwards. */
  dir: Dir;
}

function ports(box: Box, used: number): Port[] {
  const shift = ((used + 1) >> 1) * 12 * (used % 2 === 1 ? 1 : -1);
  const cx = box.x + box.width / 2 + Math.max(-box.width / 3, Math.min(box.width / 3, shift));
  const cy = box.y + box.height / 2 + Math.max(-box.height / 3, Math.min(box.height / 3, shift));
  const r = box.x + box.width;
  const b = box.y + box.height;
  return [
    { at: { x: r, y: cy }, seed: { x: r + MARGIN, y: cy }, dir: 0 },
    { at: { x: cx, y: b }, seed: { x: cx, y: b + MARGIN }, dir: 1 },
    { at: { x: box.x, y: cy }, seed: { x: box.x - MARGIN, y: cy }, dir: 2 },
    { at: { x: cx, y: box.y }, seed: { x: cx, y: box.y - MARGIN }, dir: 3 },
  ];
}

/** A binary heap of (priority, value) pairs. */
class Heap {
  private keys: number[] = [];
  private values: number[] = [];
  get size() {
    return this.keys.length;
  }
  push(key: number, value: number) {
    const k = this.keys;
    const v = this.values;
    k.push(key);
    v.push(value);
    let i = k.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((k[p] as number) <= key) break;
      k[i] = k[p] as number;
      v[i] = v[p] as number;
      i = p;
    }
    k[i] = key;
    v[i] = value;
  }
  peekKey(): number {
    return this.keys[0] as number;
  }
  pop(): number {
    const k = this.keys;
    const v = this.values;
    const top = v[0] as number;
    const lastK = k.pop() as number;
    const lastV = v.pop() as number;
    if (k.length > 0) {
      let i = 0;
      const n = k.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (k[r] as number) < (k[l] as number) ? r : l;
        if ((k[c] as number) >= lastK) break;
        k[i] = k[c] as number;
        v[i] = v[c] as number;
        i = c;
      }
      k[i] = lastK;
      v[i] = lastV;
    }
    return top;
  }
}

/**
 * The shortest orthogonal line, with few bends, from a side of `from` to a side of `to` that
 * keeps MARGIN away from every obstacle; undefined when the obstacles wall an end in.
 */
export function routeAround(req: RouteRequest): Point[] | undefined {
  const starts = ports(req.from, req.fromUsed);
  const goals = ports(req.to, req.toUsed);
  const blockers = [...req.obstacles, req.from, req.to];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const o of blockers) {
    xs.push(o.x - MARGIN, o.x + o.width + MARGIN, o.x + o.width / 2);
    ys.push(o.y - MARGIN, o.y + o.height + MARGIN, o.y + o.height / 2);
  }
  for (const p of [...starts, ...goals]) {
    xs.push(p.seed.x);
    ys.push(p.seed.y);
  }
  const X = sortedUnique(xs);
  const Y = sortedUnique(ys);
  const W = X.length;
  const H = Y.length;
  const blocked = new Uint8Array(W * H);
  for (const o of blockers) {
    const b = inflate(o, MARGIN - 0.5);
    const i0 = lowerBound(X, b.x);
    const i1 = lowerBound(X, b.x + b.width);
    const j0 = lowerBound(Y, b.y);
    const j1 = lowerBound(Y, b.y + b.height);
    for (let j = j0; j < j1; j++) for (let i = i0; i < i1; i++) blocked[j * W + i] = 1;
  }
  const cell = (p: Point) => {
    const i = indexOf(X, p.x);
    const j = indexOf(Y, p.y);
    return i < 0 || j < 0 ? -1 : j * W + i;
  };
  const goalAt = new Map<number, Port[]>();
  for (const g of goals) {
    const c = cell(g.seed);
    if (c < 0 || blocked[c]) continue;
    goalAt.set(c, [...(goalAt.get(c) ?? []), g]);
  }
  if (goalAt.size === 0) return undefined;
  const tx = req.to.x + req.to.width / 2;
  const ty = req.to.y + req.to.height / 2;
  const h = (c: number) => {
    const x = X[c % W] as number;
    const y = Y[Math.floor(c / W)] as number;
    return (
      Math.max(0, Math.abs(x - tx) - req.to.width / 2) +
      Math.max(0, Math.abs(y - ty) - req.to.height / 2)
    );
  };
  const g = new Float64Array(W * H * 4).fill(Number.POSITIVE_INFINITY);
  const prev = new Int32Array(W * H * 4).fill(-1);
  const startOf = new Map<number, Port>();
  const heap = new Heap();
  for (const s of starts) {
    const c = cell(s.seed);
    if (c < 0 || blocked[c]) continue;
    const st = c * 4 + s.dir;
    if (MARGIN < (g[st] as number)) {
      g[st] = MARGIN;
      startOf.set(st, s);
      heap.push(MARGIN + h(c), st);
    }
  }
  let best = Number.POSITIVE_INFINITY;
  let bestState = -1;
  let bestGoal: Port | undefined;
  while (heap.size > 0 && heap.peekKey() < best) {
    const st = heap.pop();
    const c = st >> 2;
    const d = (st & 3) as Dir;
    const cost = g[st] as number;
    const here = goalAt.get(c);
    if (here) {
      for (const goal of here) {
        const inward = ((goal.dir + 2) % 4) as Dir;
        const total = cost + MARGIN + (d === inward ? 0 : d === goal.dir ? 2 * BEND : BEND);
        if (total < best) {
          best = total;
          bestState = st;
          bestGoal = goal;
        }
      }
    }
    const i = c % W;
    const j = (c - i) / W;
    for (let nd = 0 as Dir; nd < 4; nd = (nd + 1) as Dir) {
      if (nd === (d + 2) % 4) continue;
      const ni = i + (DX[nd] as number);
      const nj = j + (DY[nd] as number);
      if (ni < 0 || nj < 0 || ni >= W || nj >= H) continue;
      const nc = nj * W + ni;
      if (blocked[nc]) continue;
      const step =
        Math.abs((X[ni] as number) - (X[i] as number)) +
        Math.abs((Y[nj] as number) - (Y[j] as number)) +
        (nd === d ? 0 : BEND);
      const ns = nc * 4 + nd;
      const ng = cost + step;
      if (ng < (g[ns] as number)) {
        g[ns] = ng;
        prev[ns] = st;
        heap.push(ng + h(nc), ns);
      }
    }
  }
  if (bestState < 0 || !bestGoal) return undefined;
  const cells: Point[] = [];
  let st = bestState;
  let first = st;
  while (st >= 0) {
    const c = st >> 2;
    cells.push({ x: X[c % W] as number, y: Y[Math.floor(c / W)] as number });
    first = st;
    st = prev[st] as number;
  }
  cells.reverse();
  const start = startOf.get(first) as Port;
  return simplify([start.at, ...cells, bestGoal.at]);
}

/**
 * Where a label of `size` sits on `points`: centred on a segment (so it touches its line),
 * longest segments first, at the middle and then further along, clear of `avoid` boxes and of
 * the `lines` of other edges; the middle of the longest segment when nothing is clear.
 */
export function labelOnPath(
  points: Point[],
  size: { width: number; height: number },
  avoid: Box[],
  lines: Point[][],
  outlines: Box[] = [],
): Box {
  const segs: { a: Point; b: Point; len: number }[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    segs.push({ a, b, len: Math.abs(a.x - b.x) + Math.abs(a.y - b.y) });
  }
  // Keep the ends free for the arrowhead and the port.
  const order = segs.map((s, k) => ({ s, k })).sort((p, q) => q.s.len - p.s.len || p.k - q.k);
  const at = (s: { a: Point; b: Point }, t: number): Box => {
    const x = s.a.x + (s.b.x - s.a.x) * t;
    const y = s.a.y + (s.b.y - s.a.y) * t;
    return {
      x: x - size.width / 2,
      y: y - size.height / 2,
      width: size.width,
      height: size.height,
    };
  };
  const clear = (box: Box) =>
    !avoid.some((o) => boxesOverlap(box, o)) &&
    !outlines.some((o) => outlineCrosses(inflate(box, 2), o)) &&
    !lines.some((l) => pathHits(l, [inflate(box, 1)]));
  for (const { s } of order) {
    for (const t of [0.5, 0.35, 0.65, 0.2, 0.8]) {
      const box = at(s, t);
      if (clear(box)) return box;
    }
  }
  return at((order[0] as { s: { a: Point; b: Point } }).s, 0.5);
}
