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
/** What crossing another line costs: a detour of a few bends reads better than a crossing. */
const CROSS = 160;
/** What running along another line costs (closer than NEAR it reads as that line). */
const SHARE = 400;
const NEAR = 6;
/**
 * What crossing the border of a grouping costs (`RouteRequest.borders`): a bend's worth, so a
 * line goes straight through a grouping rather than round it, and in and out once rather than
 * weaving through its border. Running along a border costs SHARE, as along a line.
 */
const BORDER = 40;

export interface RouteRequest {
  /** The boxes the line joins (its ends). */
  from: Box;
  to: Box;
  /** Boxes it must not cross. */
  obstacles: Box[];
  /** How many rerouted lines already leave or enter each end, to keep their ports apart. */
  fromUsed: number;
  toUsed: number;
  /** Lines already drawn: crossing one costs CROSS. */
  lines?: Point[][];
  /**
   * Outlines of groupings the line may cross (not obstacles): crossing one costs BORDER, running
   * along one SHARE. The line may keep MARGIN outside or inside them like round an obstacle.
   */
  borders?: Box[];
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

/** Sorted, with lines closer than half a unit merged: they make no different route, only work. */
function sortedUnique(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of sorted)
    if (out.length === 0 || v - (out[out.length - 1] as number) >= 0.5) out.push(v);
  return out;
}

function withExact(lines: number[], exact: number[]): number[] {
  return [...new Set([...lines, ...exact])].sort((a, b) => a - b);
}

/** The index of the line at `v`, or -1. */
function nearest(axis: number[], v: number): number {
  const i = lowerBound(axis, v);
  return i < axis.length && axis[i] === v ? i : -1;
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

/**
 * A binary heap of (priority, value) pairs in typed arrays that double when full: no boxed
 * numbers, no array growth per push (the search pushes a few hundred entries per line).
 */
class Heap {
  private keys = new Float64Array(256);
  private values = new Int32Array(256);
  size = 0;
  push(key: number, value: number) {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const values = new Int32Array(this.size * 2);
      values.set(this.values);
      this.values = values;
    }
    const k = this.keys;
    const v = this.values;
    let i = this.size++;
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
    const n = --this.size;
    if (n > 0) {
      const lastK = k[n] as number;
      const lastV = v[n] as number;
      let i = 0;
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
  // Most lines find their way near their ends: search a window round both first (a small grid
  // is fast), then wider, then everywhere.
  const x0 = Math.min(req.from.x, req.to.x);
  const y0 = Math.min(req.from.y, req.to.y);
  const span: Box = {
    x: x0,
    y: y0,
    width: Math.max(req.from.x + req.from.width, req.to.x + req.to.width) - x0,
    height: Math.max(req.from.y + req.from.height, req.to.y + req.to.height) - y0,
  };
  for (const grow of [120, 480]) {
    const found = routeWithin(req, inflate(span, grow));
    if (found) return found;
  }
  return routeWithin(req, undefined);
}

/**
 * The groupings' borders near the search window as closed lines to price, each adding grid
 * lines MARGIN inside and outside its sides to `xs` and `ys` (a line may keep clear of it).
 */
function bordersWithin(
  borders: Box[],
  window: Box | undefined,
  xs: number[],
  ys: number[],
): Point[][] {
  const near = window ? borders.filter((o) => boxesOverlap(inflate(o, MARGIN), window)) : borders;
  return near.map((o) => {
    xs.push(o.x - MARGIN, o.x + MARGIN, o.x + o.width - MARGIN, o.x + o.width + MARGIN);
    ys.push(o.y - MARGIN, o.y + MARGIN, o.y + o.height - MARGIN, o.y + o.height + MARGIN);
    return [
      { x: o.x, y: o.y },
      { x: o.x + o.width, y: o.y },
      { x: o.x + o.width, y: o.y + o.height },
      { x: o.x, y: o.y + o.height },
      { x: o.x, y: o.y },
    ];
  });
}

function routeWithin(req: RouteRequest, window: Box | undefined): Point[] | undefined {
  const starts = ports(req.from, req.fromUsed);
  const goals = ports(req.to, req.toUsed);
  const near = window
    ? req.obstacles.filter((o) => boxesOverlap(inflate(o, MARGIN), window))
    : req.obstacles;
  const blockers = [...near, req.from, req.to];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const o of blockers) {
    xs.push(o.x - MARGIN, o.x + o.width + MARGIN, o.x + o.width / 2);
    ys.push(o.y - MARGIN, o.y + o.height + MARGIN, o.y + o.height / 2);
  }
  const outlines = bordersWithin(req.borders ?? [], window, xs, ys);
  const inside = (v: number, lo: number, size: number) => v >= lo && v <= lo + size;
  // The ports' lines exactly (a line leaves a port straight), the obstacles' merged.
  const X = withExact(
    sortedUnique(window ? xs.filter((x) => inside(x, window.x, window.width)) : xs),
    [...starts, ...goals].map((p) => p.seed.x),
  );
  const Y = withExact(
    sortedUnique(window ? ys.filter((y) => inside(y, window.y, window.height)) : ys),
    [...starts, ...goals].map((p) => p.seed.y),
  );
  const W = X.length;
  const H = Y.length;
  const blocked = new Uint8Array(W * H);
  for (const o of blockers) {
    const b = inflate(o, MARGIN - 1);
    const i0 = lowerBound(X, b.x);
    const i1 = lowerBound(X, b.x + b.width);
    const j0 = lowerBound(Y, b.y);
    const j1 = lowerBound(Y, b.y + b.height);
    for (let j = j0; j < j1; j++) for (let i = i0; i < i1; i++) blocked[j * W + i] = 1;
  }
  const price = linePrices(X, Y, [
    { lines: req.lines ?? [], cross: CROSS },
    { lines: outlines, cross: BORDER },
  ]);
  const cell = (p: Point) => {
    const i = nearest(X, p.x);
    const j = nearest(Y, p.y);
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
  // Distance to the target's box, and a bend when it lies neither across nor along the way.
  // Each grid line's share is computed once: the search asks for it at every step.
  const hx = new Float64Array(W);
  for (let i = 0; i < W; i++)
    hx[i] = Math.max(0, Math.abs((X[i] as number) - tx) - req.to.width / 2);
  const hy = new Float64Array(H);
  for (let j = 0; j < H; j++)
    hy[j] = Math.max(0, Math.abs((Y[j] as number) - ty) - req.to.height / 2);
  const h = (c: number) => {
    const dx = hx[c % W] as number;
    const dy = hy[(c / W) | 0] as number;
    return dx + dy + (dx > 0 && dy > 0 ? BEND : 0);
  };
  // A state is a grid point and the axis the line arrived along (0 across, 1 up or down).
  const g = new Float64Array(W * H * 2).fill(Number.POSITIVE_INFINITY);
  const prev = new Int32Array(W * H * 2).fill(-1);
  const startOf = new Map<number, Port>();
  const heap = new Heap();
  for (const s of starts) {
    const c = cell(s.seed);
    if (c < 0 || blocked[c]) continue;
    const st = c * 2 + (s.dir & 1);
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
    const key = heap.peekKey();
    const st = heap.pop();
    const c = st >> 1;
    const axis = st & 1;
    const cost = g[st] as number;
    // A state reached again more cheaply was expanded at that cost already: this entry is stale.
    if (key > cost + h(c)) continue;
    const here = goalAt.get(c);
    if (here) {
      for (const goal of here) {
        const total = cost + MARGIN + (axis === (goal.dir & 1) ? 0 : BEND);
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
      const ni = i + (DX[nd] as number);
      const nj = j + (DY[nd] as number);
      if (ni < 0 || nj < 0 || ni >= W || nj >= H) continue;
      const nc = nj * W + ni;
      if (blocked[nc]) continue;
      const step =
        Math.abs((X[ni] as number) - (X[i] as number)) +
        Math.abs((Y[nj] as number) - (Y[j] as number)) +
        ((nd & 1) === axis ? 0 : BEND) +
        price(i, j, nd);
      const ns = nc * 2 + (nd & 1);
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
    const c = st >> 1;
    cells.push({ x: X[c % W] as number, y: Y[Math.floor(c / W)] as number });
    first = st;
    st = prev[st] as number;
  }
  cells.reverse();
  const start = startOf.get(first) as Port;
  return simplify([start.at, ...cells, bestGoal.at]);
}

/**
 * What a step between neighbouring grid points costs beyond its length for the lines already
 * drawn (and the borders of groupings): each group's `cross` per line it crosses, SHARE per line
 * it runs along (closer than NEAR). `(i, j, dir)` steps from point (X[i], Y[j]) one line right,
 * down, left or up.
 */
function linePrices(
  X: number[],
  Y: number[],
  groups: { lines: Point[][]; cross: number }[],
): (i: number, j: number, dir: Dir) => number {
  const W = X.length;
  // across[j * W + i]: the step from (i, j) to (i + 1, j); down[j * W + i]: to (i, j + 1).
  const across = new Float64Array(W * Y.length);
  const down = new Float64Array(W * Y.length);
  for (const { lines, cross } of groups) {
    for (const line of lines) {
      for (let s = 1; s < line.length; s++) {
        const a = line[s - 1] as Point;
        const b = line[s] as Point;
        if (Math.abs(a.x - b.x) < 0.01) {
          const [lo, hi] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
          priceRun(across, down, { fixed: X, run: Y, at: a.x, lo, hi, cross }, (f, r) => r * W + f);
        } else if (Math.abs(a.y - b.y) < 0.01) {
          const [lo, hi] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
          priceRun(down, across, { fixed: Y, run: X, at: a.y, lo, hi, cross }, (f, r) => f * W + r);
        }
      }
    }
  }
  return (i, j, dir) => {
    if (dir === 0) return across[j * W + i] as number;
    if (dir === 2) return i > 0 ? (across[j * W + i - 1] as number) : 0;
    if (dir === 1) return down[j * W + i] as number;
    return j > 0 ? (down[(j - 1) * W + i] as number) : 0;
  };
}

/**
 * Prices the steps one run of a drawn line meets: steps across it (`r.cross` in `across`, between the
 * two grid lines `at` lies between) and steps along it on a grid line within NEAR (in `along`).
 * `cell(fixed index, run index)` is the step's index.
 */
function priceRun(
  across: Float64Array,
  along: Float64Array,
  r: { fixed: number[]; run: number[]; at: number; lo: number; hi: number; cross: number },
  cell: (f: number, k: number) => number,
): void {
  const k = lowerBound(r.fixed, r.at) - 1;
  if (k >= 0 && k + 1 < r.fixed.length) {
    for (
      let q = lowerBound(r.run, r.lo + 0.5);
      q < r.run.length && (r.run[q] as number) < r.hi - 0.5;
      q++
    ) {
      const c = cell(k, q);
      across[c] = (across[c] as number) + r.cross;
    }
  }
  for (
    let f = lowerBound(r.fixed, r.at - NEAR);
    f < r.fixed.length && (r.fixed[f] as number) < r.at + NEAR;
    f++
  ) {
    for (
      let q = Math.max(0, lowerBound(r.run, r.lo) - 1);
      q + 1 < r.run.length && (r.run[q] as number) < r.hi - 0.5;
      q++
    ) {
      if ((r.run[q + 1] as number) <= r.lo + 0.5) continue;
      const c = cell(f, q);
      along[c] = (along[c] as number) + SHARE;
    }
  }
}

/**
 * Where a label of `size` sits on `points`: centred on a segment (so it touches its line),
 * longest segments first, at the middle and then further along, clear of `avoid` boxes and of
 * the `lines` of other edges, else beside its segment; when nothing is clear, the place with
 * the fewest conflicts.
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
  const at = (s: { a: Point; b: Point }, t: number, shift: number): Box => {
    const x = s.a.x + (s.b.x - s.a.x) * t;
    const y = s.a.y + (s.b.y - s.a.y) * t;
    // Shifted across its segment, the label still touches it (at its side, not its middle).
    const across = s.a.y === s.b.y;
    const dx = across ? 0 : shift * (size.width / 2 - 1);
    const dy = across ? shift * (size.height / 2 - 1) : 0;
    return {
      x: x + dx - size.width / 2,
      y: y + dy - size.height / 2,
      width: size.width,
      height: size.height,
    };
  };
  // Counted up to `limit` only: a place that scores as much as the best so far cannot win, so
  // its count stops there (most places are given up after a box or two).
  const conflicts = (box: Box, limit: number) => {
    let score = 0;
    for (const o of avoid) {
      if (boxesOverlap(box, o)) score += 10;
      if (score >= limit) return score;
    }
    const outer = inflate(box, 2);
    for (const o of outlines) {
      if (outlineCrosses(outer, o)) score += 10;
      if (score >= limit) return score;
    }
    const near = [inflate(box, 1)];
    for (const l of lines) {
      if (pathHits(l, near)) score += 1;
      if (score >= limit) return score;
    }
    return score;
  };
  let best: Box | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const { s } of order) {
    for (const t of [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9]) {
      for (const shift of [0, 1, -1]) {
        const box = at(s, t, shift);
        const score = conflicts(box, bestScore);
        if (score === 0) return box;
        if (score < bestScore) {
          bestScore = score;
          best = box;
        }
      }
    }
  }
  return best ?? at((order[0] as { s: { a: Point; b: Point } }).s, 0.5, 0);
}

/** How many times lines of different edges cross (orthogonal pieces, away from their ends). */
export function lineCrossings(lines: Point[][]): number {
  const h: { at: number; lo: number; hi: number; line: number }[] = [];
  const v: { at: number; lo: number; hi: number; line: number }[] = [];
  lines.forEach((pts, line) => {
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1] as Point;
      const b = pts[i] as Point;
      if (Math.abs(a.y - b.y) < 0.01)
        h.push({ at: a.y, lo: Math.min(a.x, b.x), hi: Math.max(a.x, b.x), line });
      else if (Math.abs(a.x - b.x) < 0.01)
        v.push({ at: a.x, lo: Math.min(a.y, b.y), hi: Math.max(a.y, b.y), line });
    }
  });
  let n = 0;
  for (const p of h) {
    for (const q of v) {
      if (p.line === q.line) continue;
      if (q.at > p.lo + 0.5 && q.at < p.hi - 0.5 && p.at > q.lo + 0.5 && p.at < q.hi - 0.5) n++;
    }
  }
  return n;
}
