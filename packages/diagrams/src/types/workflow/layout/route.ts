import { inflate, segmentHitsBox, sideDir, simplify } from "../../../core/geometry.js";
import type { Edge, Point, Side } from "../model.js";
import type { Box } from "./types.js";

/** How far a track may lie from its channel's line, either way (`lo` < 0 < `hi`). */
export interface Room {
  lo: number;
  hi: number;
}

/** Where a routed edge may run besides the straight lines between its ports. */
export interface Channels {
  /** Vertical gutters between (and beside) the columns, at their middle: free of nodes. */
  xs: number[];
  /** Horizontal gaps between (and above/below) the lanes, at their middle: free of nodes. */
  ys: number[];
  /** The room for tracks in each gutter of `xs`, clear of the nodes beside it. */
  xRoom: Room[];
  /** The room for tracks in each gap of `ys`, clear of the lane outlines. */
  yRoom: Room[];
  /** The vertical channel outside the lanes on the right, for `outside-right`. */
  outsideRightX: number;
  /**
   * Per gap of `ys`: true when it grew to give a label room, so its tracks spread over the
   * whole room instead of lying 4 apart, and a label beside one does not touch the next.
   */
  spreadYs?: boolean[];
  /**
   * Per gutter of `xs`: true when a phase outline runs 3 units from its middle line, so no
   * track takes the middle (a line there reads as drawn on the outline).
   */
  busyMiddleXs?: boolean[];
}

export interface Endpoint {
  id: string;
  box: Box;
  lane: number;
  col: number;
}

/** Clearance kept between an edge and any node it does not start or end at. */
const CLEAR = 6;
/** Length of the straight piece leaving a port before the first bend. */
const STUB = 14;
const BEND_COST = 24;

export interface RouteRequest {
  edge: Edge;
  from: Endpoint;
  to: Endpoint;
  fromSide: Side;
  toSide: Side;
  /** Port positions on the two sides (already spread when a side carries several edges). */
  fromPort: Point;
  toPort: Point;
  /** Extra offset of the outside-right channel, so such edges do not overlap. */
  outsideTrack: number;
}

/** Chooses the sides an edge leaves and enters by, from its route and the nodes' cells. */
export function chooseSides(edge: Edge, from: Endpoint, to: Endpoint): [Side, Side] {
  const below = to.lane > from.lane || (to.lane === from.lane && to.box.y > from.box.y);
  let sides: [Side, Side];
  switch (edge.route ?? "auto") {
    case "drop":
      sides = below ? ["bottom", "top"] : ["top", "bottom"];
      break;
    case "outside-right":
      sides = ["right", "right"];
      break;
    case "return-left":
      sides = ["left", "left"];
      break;
    case "bottom-channel":
      sides = ["bottom", "bottom"];
      break;
    case "up-channel":
      sides = ["top", "top"];
      break;
    default:
      if (to.col > from.col) sides = ["right", "left"];
      else if (to.col < from.col) {
        if (to.lane === from.lane) sides = ["bottom", "bottom"];
        else sides = below ? ["bottom", "top"] : ["top", "bottom"];
      } else if (to.lane !== from.lane) sides = below ? ["bottom", "top"] : ["top", "bottom"];
      else sides = below ? ["bottom", "top"] : ["top", "bottom"];
  }
  return [edge.fromSide ?? sides[0], edge.toSide ?? sides[1]];
}

/** The obstacle set: every node box, with clearance. */
export class Obstacles {
  readonly boxes: Box[];
  /**
   * The boxes in bands of overlapping x ranges (a column's nodes), each band with its
   * extent: a segment is checked only against the bands its x range reaches.
   */
  private readonly bands: { x0: number; x1: number; boxes: Box[] }[] = [];
  constructor(nodes: Box[]) {
    this.boxes = nodes.map((b) => inflate(b, CLEAR));
    for (const box of [...this.boxes].sort((p, q) => p.x - q.x)) {
      const last = this.bands[this.bands.length - 1];
      if (last && box.x < last.x1) {
        last.boxes.push(box);
        last.x1 = Math.max(last.x1, box.x + box.width);
      } else this.bands.push({ x0: box.x, x1: box.x + box.width, boxes: [box] });
    }
  }
  /** True when no segment of the polyline passes through a node box. */
  clear(points: Point[]): boolean {
    for (let i = 1; i < points.length; i++) {
      if (this.blocked(points[i - 1] as Point, points[i] as Point)) return false;
    }
    return true;
  }
  blocked(a: Point, b: Point): boolean {
    const lo = Math.min(a.x, b.x);
    const hi = Math.max(a.x, b.x);
    for (const band of this.bands) {
      if (band.x0 >= hi || band.x1 <= lo) continue;
      for (const box of band.boxes) if (segmentHitsBox(a, b, box)) return true;
    }
    return false;
  }
}

function byDistance(values: number[], to: number): number[] {
  const sorted = [...values].sort((p, q) => Math.abs(p - to) - Math.abs(q - to) || p - q);
  // Equal values sort next to each other: keep the first.
  return sorted.filter((v, i) => i === 0 || v !== sorted[i - 1]);
}

const tr = (p: Point): Point => ({ x: p.y, y: p.x });

/**
 * Candidate connectors between stub ends a and b, in order of preference, made as they are
 * asked for (the first clear one usually comes early). `da` is the direction travelled when
 * leaving a, `db` the outward direction of the target side (arrival is -db).
 * Horizontal-first cases are written once; vertical ones are solved transposed.
 */
function* candidates(
  a: Point,
  da: Point,
  b: Point,
  db: Point,
  prefX: number,
  prefY: number,
  xs: number[],
  ys: number[],
  strict: { x: boolean; y: boolean },
  channelFirst: boolean,
): Generator<Point[]> {
  if (da.x === 0) {
    const flipped = candidates(
      tr(a),
      tr(da),
      tr(b),
      tr(db),
      prefY,
      prefX,
      ys,
      xs,
      { x: strict.y, y: strict.x },
      channelFirst,
    );
    for (const path of flipped) yield path.map(tr);
    return;
  }
  const validA = (x: number) => da.x * (x - a.x) >= 0;
  // Runs go along the channels, where tracks are assigned; the bias point only when none fits
  // (or when the description sets a bias).
  const order = (lines: number[], pref: number) =>
    channelFirst ? [...byDistance(lines, pref), pref] : byDistance([pref, ...lines], pref);
  if (db.x !== 0) {
    const validB = (x: number) => db.x * (x - b.x) >= 0;
    if (Math.abs(a.y - b.y) < 0.01 && db.x === -da.x && validA(b.x)) yield [a, b];
    const xOrder = strict.x ? [prefX, ...byDistance(xs, prefX)] : order(xs, prefX);
    for (const x of xOrder) {
      if (validA(x) && validB(x)) yield [a, { x, y: a.y }, { x, y: b.y }, b];
    }
    // No single vertical run fits: go round through a horizontal gap.
    const xa = strict.x && validA(prefX) ? prefX : byDistance(xs.filter(validA), a.x)[0];
    const xb = byDistance(xs.filter(validB), b.x)[0];
    if (xa !== undefined && xb !== undefined) {
      for (const y of strict.y ? [prefY, ...byDistance(ys, prefY)] : order(ys, prefY)) {
        yield [a, { x: xa, y: a.y }, { x: xa, y }, { x: xb, y }, { x: xb, y: b.y }, b];
      }
    }
  } else {
    const validBy = (y: number) => db.y * (y - b.y) >= 0;
    const corner = validA(b.x) && validBy(a.y) ? [a, { x: b.x, y: a.y }, b] : undefined;
    const fixed = strict.x || strict.y;
    if (!fixed && corner) yield corner;
    const xOrder = (strict.x ? byDistance([prefX, ...xs], prefX) : order(xs, prefX)).filter(validA);
    const yOrder = (strict.y ? byDistance([prefY, ...ys], prefY) : order(ys, prefY)).filter(
      validBy,
    );
    // A channel the description fixes comes before the plain corner.
    for (const y of yOrder.slice(0, 4)) {
      for (const x of xOrder.slice(0, 4)) yield [a, { x, y: a.y }, { x, y }, { x: b.x, y }, b];
    }
    if (fixed && corner) yield corner;
  }
}

interface HeapItem {
  cost: number;
  state: number;
}

function heapPush(heap: HeapItem[], item: HeapItem): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if ((heap[parent] as HeapItem).cost <= item.cost) break;
    heap[i] = heap[parent] as HeapItem;
    i = parent;
  }
  heap[i] = item;
}

function heapPop(heap: HeapItem[]): HeapItem | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let mc = last.cost;
      if (l < heap.length && (heap[l] as HeapItem).cost < mc) {
        m = l;
        mc = (heap[l] as HeapItem).cost;
      }
      if (r < heap.length && (heap[r] as HeapItem).cost < mc) m = r;
      if (m === i) break;
      heap[i] = heap[m] as HeapItem;
      i = m;
    }
    heap[i] = last;
  }
  return top;
}

const DIRS: Point[] = [
  { x: 1, y: 0 },
  { x: -1, y: 0 },
  { x: 0, y: 1 },
  { x: 0, y: -1 },
];

/**
 * Shortest orthogonal path with few bends over the channel grid (gutters, lane gaps and the
 * stub ends' own lines), never through a node. Used when no simple connector is clear.
 */
function gridRoute(
  a: Point,
  da: Point,
  b: Point,
  db: Point,
  xsIn: number[],
  ysIn: number[],
  obstacles: Obstacles,
): Point[] | undefined {
  const xs = [...new Set([...xsIn, a.x, b.x])].sort((p, q) => p - q);
  const ys = [...new Set([...ysIn, a.y, b.y])].sort((p, q) => p - q);
  const nx = xs.length;
  const ny = ys.length;
  const point = (i: number, j: number): Point => ({ x: xs[i] as number, y: ys[j] as number });
  const si = xs.indexOf(a.x);
  const sj = ys.indexOf(a.y);
  const ti = xs.indexOf(b.x);
  const tj = ys.indexOf(b.y);
  const dirIndex = (d: Point) => DIRS.findIndex((q) => q.x === d.x && q.y === d.y);
  const arrive = dirIndex({ x: -db.x, y: -db.y });
  const stateOf = (i: number, j: number, d: number) => (j * nx + i) * 4 + d;
  const dist = new Float64Array(nx * ny * 4).fill(Number.POSITIVE_INFINITY);
  const prev = new Int32Array(nx * ny * 4).fill(-1);
  const heap: HeapItem[] = [];
  const start = stateOf(si, sj, dirIndex(da));
  dist[start] = 0;
  heapPush(heap, { cost: 0, state: start });
  let goal = -1;
  for (let item = heapPop(heap); item; item = heapPop(heap)) {
    const { cost, state } = item;
    if (cost > (dist[state] as number)) continue;
    const d = state % 4;
    const cell = (state - d) / 4;
    const i = cell % nx;
    const j = (cell - i) / nx;
    if (i === ti && j === tj && d === arrive) {
      goal = state;
      break;
    }
    for (let nd = 0; nd < 4; nd++) {
      const dir = DIRS[nd] as Point;
      if (dir.x === -(DIRS[d] as Point).x && dir.y === -(DIRS[d] as Point).y) continue;
      const ni = i + dir.x;
      const nj = j + dir.y;
      if (ni < 0 || nj < 0 || ni >= nx || nj >= ny) continue;
      const p = point(i, j);
      const q = point(ni, nj);
      if (obstacles.blocked(p, q)) continue;
      const next = stateOf(ni, nj, nd);
      const c = cost + Math.abs(p.x - q.x) + Math.abs(p.y - q.y) + (nd === d ? 0 : BEND_COST);
      if (c < (dist[next] as number)) {
        dist[next] = c;
        prev[next] = state;
        heapPush(heap, { cost: c, state: next });
      }
    }
  }
  if (goal < 0) return undefined;
  const path: Point[] = [];
  for (let s = goal; s >= 0; s = prev[s] as number) {
    const cell = (s - (s % 4)) / 4;
    path.push(point(cell % nx, Math.floor(cell / nx)));
  }
  return path.reverse();
}

/** Connects p to q with an L whose first leg continues `dir` when that is clear. */
function leg(p: Point, q: Point, dir: Point, obstacles: Obstacles): Point[] {
  if (Math.abs(p.x - q.x) < 0.01 || Math.abs(p.y - q.y) < 0.01) return [p, q];
  const horizontalFirst = [p, { x: q.x, y: p.y }, q];
  const verticalFirst = [p, { x: p.x, y: q.y }, q];
  // Never turn straight back on the incoming direction: that would hide the waypoint.
  const reverses = (o: Point[]) => {
    const m = o[1] as Point;
    return Math.sign(m.x - p.x) === -dir.x && dir.x !== 0
      ? true
      : Math.sign(m.y - p.y) === -dir.y && dir.y !== 0;
  };
  const ordered = dir.x !== 0 ? [horizontalFirst, verticalFirst] : [verticalFirst, horizontalFirst];
  const options = [...ordered.filter((o) => !reverses(o)), ...ordered.filter(reverses)];
  return options.find((o) => obstacles.clear(o)) ?? (options[0] as Point[]);
}

/** Reports a request the drawing cannot honour: the rule id, the edge property, why. */
type Warn = (rule: string, property: string, message: string) => void;

/** True when some inner corner of `points` lies on the line `axis` = `at`. */
const usesLine = (points: Point[], axis: "x" | "y", at: number) =>
  points.slice(1, -1).some((p) => Math.abs(p[axis] - at) < 0.01);

/** Routes one edge: an orthogonal polyline from the source's port to the target's port. */
export function routeEdge(
  req: RouteRequest,
  channels: Channels,
  obstacles: Obstacles,
  warn: Warn = () => {},
): Point[] {
  const path = routeEdgeInner(req, channels, obstacles, warn);
  const { edge } = req;
  // A straight line the router found another way (the ports aligned) still honours the route.
  if (edge.route === "straight" && path.length > 2) {
    warn(
      "render/route",
      "route",
      straightLine(req)
        ? 'route "straight" would cross a node; the edge is drawn with bends instead'
        : 'route "straight" needs the two nodes to face each other; the edge is drawn with bends instead',
    );
  }
  if (edge.channelX !== undefined && !edge.via && !usesLine(path, "x", edge.channelX)) {
    warn(
      "render/channel",
      "channelX",
      `channelX cannot carry this edge here (it lies behind a port or a node is in the way); the edge takes another channel`,
    );
  }
  if (edge.channelY !== undefined && !edge.via && !usesLine(path, "y", edge.channelY)) {
    warn(
      "render/channel",
      "channelY",
      `channelY cannot carry this edge here (it lies behind a port or a node is in the way); the edge takes another channel`,
    );
  }
  return path;
}

function routeEdgeInner(
  req: RouteRequest,
  channels: Channels,
  obstacles: Obstacles,
  warn: Warn,
): Point[] {
  const { edge, from, to } = req;
  const da = sideDir(req.fromSide);
  const db = sideDir(req.toSide);
  const p0 = req.fromPort;
  const pn = req.toPort;
  const a = { x: p0.x + da.x * STUB, y: p0.y + da.y * STUB };
  const b = { x: pn.x + db.x * STUB, y: pn.y + db.y * STUB };
  const route = edge.route ?? "auto";

  if (edge.via && edge.via.length > 0) {
    const path: Point[] = [p0, a];
    let dir = da;
    let cur = a;
    for (const v of [...edge.via, b]) {
      const piece = leg(cur, v, dir, obstacles);
      path.push(...piece.slice(1));
      const last = piece[piece.length - 2] as Point;
      dir = { x: Math.sign(v.x - last.x), y: Math.sign(v.y - last.y) };
      cur = v;
    }
    path.push(pn);
    return simplify(path);
  }

  if (route === "straight") {
    const straight = straightLine(req);
    if (straight && obstacles.clear(straight)) return straight;
  }

  const bias = edge.bias ?? 0.5;
  let prefX = a.x + bias * (b.x - a.x);
  let prefY = a.y + bias * (b.y - a.y);
  const strict = { x: edge.channelX !== undefined, y: edge.channelY !== undefined };
  if (route === "outside-right") {
    prefX = channels.outsideRightX + req.outsideTrack;
    strict.x = true;
  } else if (route === "return-left") {
    const left = Math.min(a.x, b.x);
    prefX = channels.xs.filter((x) => x <= left).sort((p, q) => q - p)[0] ?? left - STUB;
    strict.x = true;
  } else if (route === "bottom-channel") {
    const lower = Math.max(from.box.y + from.box.height, to.box.y + to.box.height);
    prefY = channels.ys.filter((y) => y >= lower).sort((p, q) => p - q)[0] ?? lower + STUB;
    strict.y = true;
  } else if (route === "up-channel") {
    const upper = Math.min(from.box.y, to.box.y);
    prefY = channels.ys.filter((y) => y <= upper).sort((p, q) => q - p)[0] ?? upper - STUB;
    strict.y = true;
  }
  if (edge.channelX !== undefined) prefX = edge.channelX;
  if (edge.channelY !== undefined) prefY = edge.channelY;

  const xs = route === "outside-right" ? [...channels.xs, prefX] : channels.xs;
  const options = candidates(
    a,
    da,
    b,
    db,
    prefX,
    prefY,
    xs,
    channels.ys,
    strict,
    edge.bias === undefined,
  );
  let best: Point[] | undefined;
  let first: Point[] | undefined;
  for (const middle of options) {
    first ??= middle;
    if (obstacles.clear(middle)) {
      best = middle;
      break;
    }
  }
  if (!best) {
    best = gridRoute(a, da, b, db, [...xs, prefX], [...channels.ys, prefY], obstacles);
  }
  if (!best) {
    // Nothing avoids every node (the ports themselves are boxed in): keep the intended shape.
    best = first ?? [a, b];
    warn(
      "render/route",
      edge.route ? "route" : "",
      "no route for this edge avoids every node; it is drawn through one",
    );
  }
  return simplify([p0, ...best, pn]);
}

/** A single straight segment between the two boxes' facing sides, when they face each other. */
function straightLine(req: RouteRequest): Point[] | undefined {
  const { from, to, fromSide } = req;
  const bias = req.edge.bias ?? 0.5;
  const f = from.box;
  const t = to.box;
  if (fromSide === "left" || fromSide === "right") {
    const lo = Math.max(f.y, t.y) + 8;
    const hi = Math.min(f.y + f.height, t.y + t.height) - 8;
    if (lo > hi) return undefined;
    const y = lo + bias * (hi - lo);
    const rightward = t.x > f.x;
    return [
      { x: rightward ? f.x + f.width : f.x, y },
      { x: rightward ? t.x : t.x + t.width, y },
    ];
  }
  const lo = Math.max(f.x, t.x) + 8;
  const hi = Math.min(f.x + f.width, t.x + t.width) - 8;
  if (lo > hi) return undefined;
  const x = lo + bias * (hi - lo);
  const downward = t.y > f.y;
  return [
    { x, y: downward ? f.y + f.height : f.y },
    { x, y: downward ? t.y : t.y + t.height },
  ];
}
