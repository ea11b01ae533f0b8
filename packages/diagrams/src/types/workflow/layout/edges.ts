import { boundsOf, round, simplify } from "../../../core/geometry.js";
import { measureText } from "../../../core/text/measure.js";
import type { Edge, EdgeRole, Point, Side, WorkflowDiagram } from "../model.js";
import { type LabelScene, placeEdgeLabel } from "./labels.js";
import { cutMessage, isCut, METRICS as M, textBlock } from "./metrics.js";
import {
  type Channels,
  chooseSides,
  type Endpoint,
  Obstacles,
  type Room,
  routeEdge,
} from "./route.js";
import { EDGE_LABEL, wrap } from "./texts.js";
import { separateEnds, separateTracks } from "./tracks.js";
import type { BandLayout, Box, EdgeLayout, NodeLayout, TextBlock } from "./types.js";

function sideSpan(box: Box, side: Side): { start: number; length: number } {
  return side === "left" || side === "right"
    ? { start: box.y, length: box.height }
    : { start: box.x, length: box.width };
}

function portPoint(box: Box, side: Side, along: number): Point {
  switch (side) {
    case "left":
      return { x: box.x, y: along };
    case "right":
      return { x: box.x + box.width, y: along };
    case "top":
      return { x: along, y: box.y };
    case "bottom":
      return { x: along, y: box.y + box.height };
  }
}

/** Consecutive mainPath pairs, as "from\u0000to". */
export function mainPairs(diagram: WorkflowDiagram): Set<string> {
  const pairs = new Set<string>();
  const path = diagram.mainPath ?? [];
  for (let i = 1; i < path.length; i++) pairs.add(`${path[i - 1]}\u0000${path[i]}`);
  return pairs;
}

/** An edge's role: as given, else main along mainPath and branch elsewhere. */
export function edgeRole(edge: Edge, main: Set<string>): EdgeRole {
  return edge.role ?? (main.has(`${edge.from}\u0000${edge.to}`) ? "main" : "branch");
}

const ROLE_WIDTH: Record<EdgeRole, number> = {
  main: 2.25,
  branch: 1.5,
  async: 1.5,
  return: 1.5,
  error: 1.75,
};

/** The box an arrowhead of a line `width` wide covers at the end of `points` (see renderEdge). */
function arrowBox(points: Point[], width: number): Box {
  const tip = points[points.length - 1] as Point;
  const before = points[points.length - 2] as Point;
  const len = 7 + width * 1.6;
  const half = 3.5 + width;
  const dx = Math.sign(tip.x - before.x);
  const dy = Math.sign(tip.y - before.y);
  const base = { x: tip.x - dx * len, y: tip.y - dy * len };
  const x = Math.min(tip.x, base.x) - Math.abs(dy) * half;
  const y = Math.min(tip.y, base.y) - Math.abs(dx) * half;
  return {
    x,
    y,
    width: Math.abs(dx) * len + 2 * Math.abs(dy) * half,
    height: Math.abs(dy) * len + 2 * Math.abs(dx) * half,
  };
}

/** The routed edges (labels not yet placed) and the tracks each channel lacked room for. */
export interface Routed {
  edges: EdgeLayout[];
  xShort: number[];
  yShort: number[];
}

/**
 * What a routing pass is for:
 * - `final`: every edge routed, its runs separated onto tracks and its ends spread.
 * - `trial`: the same, but a channel short of tracks means another pass: stop at the count.
 * - `warnings`: only the warnings matter: only edges that request a route or channel are
 *   routed (a plain edge always finds one: its stubs end in a gutter or lane padding, and the
 *   gutters and lane gaps, which hold no node, connect them all), and runs stay on their
 *   channels' middle lines.
 */
export type RouteMode = "final" | "trial" | "warnings";

/** An edge on its way through routing: its two ends, the sides it leaves and enters by, its ports. */
interface Pending {
  index: number;
  from: Endpoint;
  to: Endpoint;
  sides: [Side, Side];
  ports: [Point, Point];
}

/**
 * Routes every edge between the placed nodes, each run on its own track in its gutter or lane
 * gap. Reports what it cannot honour (and labels cut short) through `warn`.
 */
export function routeEdges(
  diagram: WorkflowDiagram,
  nodes: NodeLayout[],
  laneIndex: Map<string, number>,
  channels: Channels,
  warn: (rule: string, path: string, message: string) => void = () => {},
  mode: RouteMode = "final",
  blocks: LabelBlocks = new Map(),
): Routed {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pending = pendingEdges(diagram, byId, laneIndex);
  spreadPorts(pending, byId);
  const routed = routeEach(diagram, pending, nodes, channels, warn, mode);
  const tracks =
    mode !== "warnings"
      ? separateTracks(routed, channels)
      : { paths: routed, xShort: [] as number[], yShort: [] as number[] };
  const short = tracks.xShort.some((n) => n > 0) || tracks.yShort.some((n) => n > 0);
  if (mode === "trial" && short) return { edges: [], xShort: tracks.xShort, yShort: tracks.yShort };
  const simple = tracks.paths.map(simplify);
  const finalPoints = (
    mode === "warnings" ? simple : separateEnds(simple, portRooms(pending, tracks.paths))
  ).map((path) => path.map((q) => ({ x: round(q.x), y: round(q.y) })));
  const main = mainPairs(diagram);
  const edges = pending.map((p, k) =>
    edgeLayout(diagram.edges[p.index] as Edge, p, finalPoints[k] as Point[], main, blocks, warn),
  );
  return { edges, xShort: tracks.xShort, yShort: tracks.yShort };
}

/** Every edge whose two ends exist, with the sides it leaves and enters by. */
function pendingEdges(
  diagram: WorkflowDiagram,
  byId: Map<string, NodeLayout>,
  laneIndex: Map<string, number>,
): Pending[] {
  const endpoint = (id: string): Endpoint | undefined => {
    const n = byId.get(id);
    if (!n) return undefined;
    return { id, box: n.box, lane: laneIndex.get(n.node.lane) ?? 0, col: n.node.col };
  };
  const pending: Pending[] = [];
  diagram.edges.forEach((edge, index) => {
    const from = endpoint(edge.from);
    const to = endpoint(edge.to);
    if (!from || !to) return; // validation refuses these; layout stays total.
    const sides = chooseSides(edge, from, to);
    pending.push({
      index,
      from,
      to,
      sides,
      ports: [
        { x: 0, y: 0 },
        { x: 0, y: 0 },
      ],
    });
  });
  return pending;
}

/**
 * Spreads the ports of edges sharing one side of one node, ordered by where the other end
 * lies so that they do not cross each other on the way out.
 */
function spreadPorts(pending: Pending[], byId: Map<string, NodeLayout>): void {
  const slots = new Map<string, { p: Pending; end: 0 | 1; key: number }[]>();
  for (const p of pending) {
    for (const end of [0, 1] as const) {
      const self = end === 0 ? p.from : p.to;
      const other = end === 0 ? p.to : p.from;
      const side = p.sides[end];
      const k = `${self.id}\u0000${side}`;
      const horizontalSide = side === "left" || side === "right";
      const key = horizontalSide
        ? other.box.y + other.box.height / 2
        : other.box.x + other.box.width / 2;
      const list = slots.get(k) ?? [];
      list.push({ p, end, key });
      slots.set(k, list);
    }
  }
  for (const [k, list] of slots) {
    const [id, side] = k.split("\u0000") as [string, Side];
    const box = (byId.get(id) as NodeLayout).box;
    list.sort((a, b) => a.key - b.key || a.p.index - b.p.index || a.end - b.end);
    const span = sideSpan(box, side);
    list.forEach((slot, i) => {
      const t = list.length === 1 ? 0.5 : 0.2 + (0.6 * i) / (list.length - 1);
      slot.p.ports[slot.end] = portPoint(box, side, round(span.start + span.length * t));
    });
  }
}

/** Each edge's path through the channels (only those that can warn, in `warnings` mode). */
function routeEach(
  diagram: WorkflowDiagram,
  pending: Pending[],
  nodes: NodeLayout[],
  channels: Channels,
  warn: (rule: string, path: string, message: string) => void,
  mode: RouteMode,
): Point[][] {
  const obstacles = new Obstacles(nodes.map((n) => n.box));
  let outsideTrack = 0;
  const routed: Point[][] = [];
  for (const p of pending) {
    const edge = diagram.edges[p.index] as (typeof diagram.edges)[number];
    let track = 0;
    if (edge.route === "outside-right" && edge.channelX === undefined) {
      track = outsideTrack;
      outsideTrack += 10;
    }
    const requests =
      edge.route !== undefined || edge.channelX !== undefined || edge.channelY !== undefined;
    if (mode === "warnings" && !requests) {
      routed.push(p.ports);
      continue;
    }
    const points = routeEdge(
      {
        edge,
        from: p.from,
        to: p.to,
        fromSide: p.sides[0],
        toSide: p.sides[1],
        fromPort: p.ports[0],
        toPort: p.ports[1],
        outsideTrack: track,
      },
      channels,
      obstacles,
      (rule, property, message) =>
        warn(rule, `/edges/${p.index}${property ? `/${property}` : ""}`, message),
    );
    routed.push(points);
  }
  return routed;
}

/** Where each port may move along its side: clear of the corners. */
function portRooms(pending: Pending[], paths: Point[][]): [Room, Room][] {
  return pending.map((p, k) =>
    p.sides.map((side, end) => {
      const span = sideSpan((end === 0 ? p.from : p.to).box, side);
      const path = paths[k] as Point[];
      const port = (end === 0 ? path[0] : path[path.length - 1]) as Point;
      // A run leaving a vertical side moves in y; its own coordinate is the port's y.
      const onSide = side === "left" || side === "right" ? port.y : port.x;
      return {
        lo: Math.min(onSide, span.start + 8),
        hi: Math.max(onSide, span.start + span.length - 8),
      };
    }),
  ) as [Room, Room][];
}

/** The routed edge as drawn: its points, arrowhead, role and width; warns of a label cut short. */
function edgeLayout(
  edge: Edge,
  p: Pending,
  points: Point[],
  main: Set<string>,
  blocks: LabelBlocks,
  warn: (rule: string, path: string, message: string) => void,
): EdgeLayout {
  const tip = points[points.length - 1] as Point;
  const before = points[points.length - 2] as Point;
  const len = Math.hypot(tip.x - before.x, tip.y - before.y) || 1;
  if (edge.label !== undefined && edge.label !== "") {
    const block = wrappings(edge.label, blocks).first;
    if (isCut(block, edge.label)) {
      warn("render/text-cut", `/edges/${p.index}/label`, cutMessage(block));
    }
  }
  const role = edgeRole(edge, main);
  return {
    id: edge.id ?? `e${p.index}`,
    index: p.index,
    edge,
    role,
    fromSide: p.sides[0],
    toSide: p.sides[1],
    points,
    arrow: { tip, dx: round((tip.x - before.x) / len), dy: round((tip.y - before.y) / len) },
    strokeWidth: edge.width ?? ROLE_WIDTH[role] * (edge.variant === "emphasis" ? 1.4 : 1),
  };
}

/** An edge label's wrappings: at the label width, then narrower ones that cut nothing. */
interface LabelWrappings {
  first: TextBlock;
  /** Made on first use: most labels find a clear spot at their first wrapping. */
  narrower?: TextBlock[];
}

/** Edge labels wrapped once per layout, however many passes it takes (by label text). */
export type LabelBlocks = Map<string, LabelWrappings>;

/** A narrower wrapping must save at least this much width to be worth trying. */
const MIN_SAVING = 16;

/**
 * The narrowest wrapping of `label` in `lines` lines or fewer that cuts nothing (no word, no
 * line) and is at most `widest` wide, or undefined when there is none.
 */
function balanced(label: string, lines: number, widest: number): TextBlock | undefined {
  const wrapAt = (width: number) => textBlock(label, M.edgeLabelSize, "regular", width, lines);
  // Never narrower than the widest word: wrapping would break it between characters.
  const widestWord = Math.max(...label.split(/\s+/).map((w) => measureText(w, M.edgeLabelSize)));
  let lo = Math.ceil(Math.max(measureText(label, M.edgeLabelSize) / lines, widestWord));
  let hi = Math.floor(widest);
  if (lo > hi || isCut(wrapAt(hi), label)) return undefined;
  // Wider never takes more lines, so the narrowest width that fits is found by halving.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (isCut(wrapAt(mid), label)) lo = mid + 1;
    else hi = mid;
  }
  return wrapAt(hi);
}

function wrappings(label: string, blocks: LabelBlocks): LabelWrappings {
  let found = blocks.get(label);
  if (!found) {
    found = { first: wrap(label, EDGE_LABEL) };
    blocks.set(label, found);
  }
  return found;
}

/** The most lines a narrower wrapping of a label takes: tall, but it fits beside a short run. */
const NARROWEST_LINES = 4;

/**
 * The narrower wrappings of a label, in as many lines as its first (at least two), then one
 * line more at a time up to NARROWEST_LINES.
 */
function narrower(label: string, wrapped: LabelWrappings): TextBlock[] {
  if (!wrapped.narrower) {
    const out: TextBlock[] = [];
    let last = wrapped.first;
    for (let lines = Math.max(2, wrapped.first.lines.length); lines <= NARROWEST_LINES; lines++) {
      const b = balanced(label, lines, last.box.width - MIN_SAVING);
      if (b) {
        out.push(b);
        last = b;
      }
    }
    wrapped.narrower = out;
  }
  return wrapped.narrower;
}

/**
 * Places the routed edges' labels, clear of the nodes, the other edges, the `bands` (groups
 * and phases) and the lanes' header cells where they can be, inside `bounds`.
 */
export function labelEdges(
  edges: EdgeLayout[],
  nodes: NodeLayout[],
  bounds: Box,
  bands: BandLayout[],
  laneHeaders: Box[],
  blocks: LabelBlocks = new Map(),
): LabelScene["crowded"] {
  const scene: LabelScene = {
    bounds,
    nodes: nodes.map((n) => n.box),
    edges: edges.map((e) => e.points),
    extents: edges.map((e) => boundsOf(e.points)),
    outlines: bands.map((b) => b.box),
    captions: [...bands.map((b) => b.caption), ...laneHeaders],
    placed: [],
    arrows: edges.map((e) => arrowBox(e.points, e.strokeWidth)),
    crowded: [],
  };
  edges.forEach((layout, k) => {
    const { edge } = layout;
    if (edge.label === undefined || edge.label === "") return;
    const label = edge.label;
    const wrapped = wrappings(label, blocks);
    layout.label = placeEdgeLabel(edge, k, wrapped.first, () => narrower(label, wrapped), scene);
  });
  return scene.crowded;
}
