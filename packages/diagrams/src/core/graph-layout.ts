/**
 * A layered (Sugiyama-style) graph layout: pure, synchronous and deterministic. Compound nodes
 * hold a graph of their own, laid out first and then placed as one box; an edge between two
 * regions is laid out in the innermost region holding both ends. Steps per region: cycle
 * breaking (as few lines turned as the cycles force, graph-layout/feedback.ts), longest-path
 * layering with every edge two layers long (the middle layer holds its label), barycenter
 * crossing reduction, least-squares coordinate assignment (weighted pool-adjacent-violators, so
 * long edges run straight), orthogonal routes with their bends in channels between layers; then
 * arrowheads that would stack spread or joined (core/trunk.ts). With `together`, the whole
 * drawing is also laid out as one layered graph (graph-layout/clustered.ts) and the layout
 * with fewer needless backward lines, then fewer crossings, kept. Reference: docs/decisions.md.
 */
import {
  type Arrow,
  type Box,
  boxesOverlap,
  inflate,
  outlineCrossings,
  runsAlongOutline,
  segmentMeetsBox,
} from "./geometry.js";
import { HEAD_LIMIT, MIN_RUN, TRACK_LIMIT } from "./graph-check.js";
import { labelOnPath, lineCrossings, pathHits, routeAround } from "./graph-layout/avoid.js";
import { layClustered } from "./graph-layout/clustered.js";
import { edgesOnCycles } from "./graph-layout/cycles.js";
import { estimateRegion } from "./graph-layout/estimate.js";
import { type Frame, frame } from "./graph-layout/frame.js";
import { type NudgeEdge, nudgeApart } from "./graph-layout/nudge.js";
import { ports } from "./graph-layout/ports.js";
import { type Region, type RegionEdge, regionState } from "./graph-layout/region.js";
import { realise, route } from "./graph-layout/routes.js";
import { measure, order, place, type Ranks, rank } from "./graph-layout/stages.js";
import { isBand, WRAP_RATIO, type WrapPlan, wrapPlan } from "./graph-layout/wrap.js";
import type { Point } from "./model.js";
import { arrowAt } from "./translate.js";
import { arriveAround, spreadArrivals } from "./trunk.js";

export type GraphDirection = "right" | "down" | "left" | "up";

export interface GraphNode {
  id: string;
  width: number;
  height: number;
  /** Compound node: laid out recursively; its box holds them within `padding`. */
  children?: GraphNode[];
  padding?: { top: number; right: number; bottom: number; left: number };
  /** Initial states open their region, final states close it. */
  rank?: "first" | "last";
  /**
   * Lines arriving on one side whose arrowheads would overlap join into one trunk instead of
   * spreading along the side: a small round or pointed node (a final state, a choice), where a
   * head off the side's middle would miss the shape.
   */
  joinArrivals?: true;
  /** Within its layer, hinted nodes take their slots in this order (lower first). */
  order?: number;
  /**
   * Compound nodes: an area (from the node's top left corner) no other node's edge may cross,
   * e.g. where its title is written.
   */
  keepOut?: Box;
  /**
   * A box laid beside the node across the flow (a note): `start` is left of it in a top-down
   * drawing, above it in a left-to-right one. Returned among the nodes under its own id.
   */
  beside?: { id: string; width: number; height: number; side: "start" | "end" };
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  /** The label's size; the edge passes through its middle. */
  label?: { width: number; height: number };
  /** Laid out like the others (it pulls its ends together) but not drawn nor returned. */
  hidden?: boolean;
}

interface GraphSpacing {
  /** Between two nodes of one layer. */
  node: number;
  /** Between an edge (or label) and its neighbour in a layer. */
  edge: number;
  /** Between two layers of nodes. */
  layer: number;
}

export interface GraphLayoutInput {
  nodes: GraphNode[];
  edges: GraphEdge[];
  direction: GraphDirection;
  spacing: GraphSpacing;
  /** Wrap the layers into bands side by side when the graph is far longer than wide. */
  wrap?: boolean;
  /**
   * Sizes only (unwrapped): lines through boxes stay there and none is moved apart. Routing them
   * round takes about a third of a layout and changes its size little (graph-direction uses it).
   */
  rough?: boolean;
  /**
   * Also lay the whole drawing out as one layered graph, compound nodes as contiguous blocks
   * (graph-layout/clustered.ts), and keep that when it draws fewer lines backwards without a
   * cycle, or as many and its lines cross fewer times.
   */
  together?: boolean;
  /**
   * Compound nodes are groupings, not obstacles (architecture boundaries): a line may cross one
   * that holds neither of its ends, straight through (entering and leaving it once), but never
   * a node inside it, its keep-out area (its title) nor along its border. Without it (data-flow
   * trust boundaries, composite states) a line goes round every compound node holding neither
   * end: crossing a trust boundary says the data crosses it.
   */
  crossGroups?: boolean;
  /**
   * The description's structure (`graphShape` of these nodes and edges), when the caller lays
   * the same description out more than once (estimates and layouts in several directions): it
   * does not depend on the direction nor on the sizes, so it is worked out once.
   */
  shape?: GraphShape;
}

/**
 * What a layout needs of the description's structure alone: each node's compound parent, the
 * edges that close a cycle, and each region's edges. The same in every direction and size.
 */
export interface GraphShape {
  parent: Map<string, string | undefined>;
  cyclic: Set<string>;
  byRegion: Map<string | undefined, RegionEdge[]>;
  /** Each region's layers (ranking reads no size), kept by the first layout or estimate. */
  ranks: Map<string | undefined, Ranks>;
}

/** The structure of a graph description, for `GraphLayoutInput.shape`. */
export function graphShape(nodes: GraphNode[], edges: GraphEdge[]): GraphShape {
  const parent = parentsOf(nodes);
  const cyclic = edgesOnCycles(nodes, edges);
  const byRegion = edgesByRegion(edges, parent, new Set(), cyclic);
  return { parent, cyclic, byRegion, ranks: new Map() };
}

/** An edge as laid out: its polyline and the box kept free for its label. */
export interface LaidEdge {
  points: Point[];
  label?: Box;
}

export interface GraphLayout {
  width: number;
  height: number;
  /** Every node, nested ones included, from the drawing's top left corner. */
  nodes: Map<string, Box>;
  edges: Map<string, LaidEdge>;
  /** Edges drawn against the main direction (laid out from head to tail to break a cycle). */
  against: Set<string>;
}

/**
 * How many lines between bands a wrapped drawing may have (more: a quarter of its edges). 12:
 * with cycles broken at as few lines as they force, a state machine's main chain runs longer
 * (fewer lines turned back, so fewer layers share), and two seeded lifecycles of 18 states
 * needed 9 to 12 lines between their bands to fit a page; at 8 they were drawn 1:4.2.
 */
const MAX_BAND_LINES = 12;

/** Lays out a graph; throws when an edge names a node that is not there. */
export function layoutGraph(input: GraphLayoutInput): GraphLayout {
  if (!input.wrap) return layOnce(input, new Set(), input.rough !== true);
  // A first pass without the final routing tells whether the layers need to wrap.
  const trial = layOnce(input, new Set(), false);
  const f = frame(input.direction);
  let last: GraphLayout | undefined;
  // When only part of the drawing wraps (a chain inside a boundary), one more band may be
  // needed for the whole to fit.
  for (let more = 0; more <= MORE_BANDS; more++) {
    const plan = wrapPlan(input.nodes, trial, f, more);
    if (!plan) break;
    const wrapped = layWrapped(input, plan);
    if (!wrapped) break;
    last = wrapped;
    const s = f.size(wrapped);
    if (s.along / Math.max(1, s.across) <= WRAP_RATIO) break;
  }
  return last ?? layOnce(input, new Set(), true);
}

/** How many bands beyond the first guess a partly wrapped drawing may take. */
const MORE_BANDS = 2;

/** The layout with its layers in the plan's bands, or undefined when too many lines join them. */
function layWrapped(input: GraphLayoutInput, plan: WrapPlan<GraphNode>): GraphLayout | undefined {
  // Edges from one band to another are routed around everything once the bands are placed.
  const up = new Map<string, string | undefined>();
  const walk = (list: GraphNode[], at: string | undefined) => {
    for (const n of list) {
      up.set(n.id, at);
      walk(n.children ?? [], n.id);
    }
  };
  walk(input.nodes, undefined);
  const bandOf = (id: string): string | undefined => {
    for (let at: string | undefined = id; at !== undefined; at = up.get(at)) {
      const band = plan.bandOf.get(at);
      if (band) return band;
    }
    return undefined;
  };
  const across = new Set(
    input.edges
      .filter((e) => {
        const [a, b] = [bandOf(e.from), bandOf(e.to)];
        return a !== undefined && b !== undefined && a !== b;
      })
      .map((e) => e.id),
  );
  // Lines between bands are routed one by one round everything: beyond a few, the drawing
  // reads worse wrapped than long.
  if (across.size > Math.max(MAX_BAND_LINES, input.edges.length / 4)) return undefined;
  // The bands are compound nodes of their own: a structure of the description does not hold.
  const { shape: _, ...unwrapped } = input;
  const wrapped = layOnce({ ...unwrapped, nodes: plan.nodes }, across, true);
  for (const id of plan.bands) wrapped.nodes.delete(id);
  return wrapped;
}

/**
 * One layered layout; `deferred` edges skip it and are routed around everything after. Without
 * `finish`, lines through boxes stay as they are and none is moved apart (enough for sizes).
 */
function layOnce(input: GraphLayoutInput, deferred: Set<string>, finish: boolean): GraphLayout {
  const shape = input.shape ?? graphShape(input.nodes, input.edges);
  const { parent, cyclic } = shape;
  const byRegion =
    deferred.size === 0 ? shape.byRegion : edgesByRegion(input.edges, parent, deferred, cyclic);
  const f = frame(input.direction);
  const ranks = deferred.size === 0 ? shape.ranks : undefined;
  let root = layoutRegion(input.nodes, undefined, byRegion, f, input.spacing, ranks);
  if (input.together && deferred.size === 0) {
    const links = input.edges.map((e) => ({
      ...e,
      endFrom: e.from,
      endTo: e.to,
      cyclic: cyclic.has(e.id),
    }));
    const one = layClustered(input.nodes, links, f, input.spacing);
    const shown = input.edges.filter((e) => !e.hidden);
    // A line drawn backwards that closes no cycle misleads more than a crossing does, so the
    // layout with fewer of those wins, then the one crossing less.
    const cost = (r: Region): [number, number] => [
      shown.filter((e) => r.against.has(e.id) && !cyclic.has(e.id)).length,
      lineCrossings(shown.map((e) => r.edges.get(e.id)?.points ?? [])),
    ];
    if (one) {
      const [b1, x1] = cost(one);
      const [b0, x0] = cost(root);
      if (b1 < b0 || (b1 === b0 && x1 < x0)) root = one;
    }
  }
  for (const e of input.edges) {
    if (!e.hidden) continue;
    root.edges.delete(e.id);
    root.against.delete(e.id);
  }
  if (!finish) return root;
  avoidBoxes(root, input, parent, deferred);
  separateLines(root, input);
  spreadHeads(root, input);
  return root;
}

/**
 * No two arrowheads at one point: lines arriving on one side of a box with heads closer than an
 * arrowhead are spread along that side, or joined into one trunk with one arrowhead where the
 * side is too short for them all (a hub many boxes write to; core/trunk.ts).
 */
function spreadHeads(root: Region, input: GraphLayoutInput): void {
  const joining = new Set<string>();
  const leaves: string[] = [];
  const walk = (list: GraphNode[]) => {
    for (const n of list) {
      if (n.joinArrivals) joining.add(n.id);
      if (!n.children || n.children.length === 0) leaves.push(n.id);
      walk(n.children ?? []);
    }
  };
  walk(input.nodes);
  // A moved line's runs cross no box but its own two ends.
  const clearOf = (from: string, to: string) => (points: Point[]) =>
    points.every((p, i) => {
      const q = points[i - 1];
      if (!q) return true;
      return leaves.every((id) => {
        if (id === from || id === to) return true;
        return !segmentMeetsBox(q, p, inflate(root.nodes.get(id) as Box, -1));
      });
    });
  const arriving = new Map<string, { id: string; from: string; points: Point[]; arrow: Arrow }[]>();
  const tails = new Map<string, Point[]>();
  for (const e of input.edges) {
    const laid = root.edges.get(e.id);
    if (!laid || e.from === e.to || laid.points.length < 2) continue;
    const list = arriving.get(e.to) ?? [];
    list.push({ id: e.id, from: e.from, points: laid.points, arrow: arrowAt(laid.points) });
    arriving.set(e.to, list);
    tails.set(e.from, [...(tails.get(e.from) ?? []), laid.points[0] as Point]);
  }
  for (const [id, lines] of arriving) {
    const box = root.nodes.get(id);
    if (!box || lines.length < 2) continue;
    const clear = (line: { from: string; points: Point[] }) => clearOf(line.from, id)(line.points);
    if (joining.has(id)) {
      // Each its own arrowhead on a side of its own, where the lines can turn there.
      const ends = [...(tails.get(id) ?? []), ...lines.map((l) => l.arrow.tip)];
      arriveAround(lines, box, HEAD_LIMIT, ends, clear);
    } else spreadArrivals(lines, box, HEAD_LIMIT, tails.get(id) ?? [], clear);
    for (const l of lines) (root.edges.get(l.id) as LaidEdge).points = l.points;
  }
}

/**
 * The size `layoutGraph` would give (unwrapped, lines not yet routed round boxes), estimated
 * from the layers alone (graph-layout/estimate.ts): cheap enough to run before deciding whether
 * a direction is worth laying out at all.
 */
export function estimateGraphSize(input: GraphLayoutInput): { width: number; height: number } {
  const { byRegion, ranks } = input.shape ?? graphShape(input.nodes, input.edges);
  const f = frame(input.direction);
  const r = estimateRegion(input.nodes, undefined, byRegion, f, input.spacing, ranks);
  return { width: r.width, height: r.height };
}

/** Each node's compound parent (top level: undefined). */
function parentsOf(nodes: GraphNode[]): Map<string, string | undefined> {
  const parent = new Map<string, string | undefined>();
  const walk = (list: GraphNode[], p: string | undefined) => {
    for (const n of list) {
      parent.set(n.id, p);
      walk(n.children ?? [], n.id);
    }
  };
  walk(nodes, undefined);
  return parent;
}

/**
 * `layoutGraph` for one description tried in several directions (core/graph-direction): the
 * full layout of a direction laid out roughly before finishes that rough layout (routes lines
 * round boxes, moves them apart) instead of laying it out again; the same steps on the same
 * state, so the same layout. A rough layout handed out is finished in place: its reader must be
 * done with it (a type's layout only maps its points and boxes into new ones).
 */
export function finishingLayouter(): (input: GraphLayoutInput) => GraphLayout {
  const rough = new Map<GraphDirection, GraphLayout>();
  return (input) => {
    if (input.wrap) return layoutGraph(input);
    if (input.rough) {
      const laid = layoutGraph(input);
      rough.set(input.direction, laid);
      return laid;
    }
    const kept = rough.get(input.direction);
    if (!kept) return layoutGraph(input);
    rough.delete(input.direction);
    const none = new Set<string>();
    avoidBoxes(kept, input, input.shape?.parent ?? parentsOf(input.nodes), none);
    separateLines(kept, input);
    return kept;
  };
}

/** Lines that would read as one (a shared track, stacked heads, a tail on a head) move apart. */
function separateLines(root: Region, input: GraphLayoutInput): void {
  const leaves: Box[] = [];
  const walk = (list: GraphNode[]) => {
    for (const n of list) {
      if (n.children && n.children.length > 0) walk(n.children);
      else leaves.push(root.nodes.get(n.id) as Box);
    }
  };
  walk(input.nodes);
  const lines: NudgeEdge[] = [];
  for (const e of input.edges) {
    const laid = root.edges.get(e.id);
    if (!laid || e.from === e.to) continue;
    const line: NudgeEdge = {
      id: e.id,
      points: laid.points,
      from: root.nodes.get(e.from) as Box,
      to: root.nodes.get(e.to) as Box,
    };
    if (laid.label) line.label = laid.label;
    lines.push(line);
  }
  nudgeApart(lines, leaves);
  for (const l of lines) (root.edges.get(l.id) as LaidEdge).points = l.points;
}

/** Each edge belongs to the innermost region holding both ends, between that region's nodes. */
function edgesByRegion(
  edges: GraphEdge[],
  parent: Map<string, string | undefined>,
  deferred: Set<string>,
  cyclic: Set<string>,
): Map<string | undefined, RegionEdge[]> {
  const chain = (id: string): string[] => {
    const out: string[] = [];
    for (let at: string | undefined = id; at !== undefined; at = parent.get(at)) out.unshift(at);
    return out;
  };
  const byRegion = new Map<string | undefined, RegionEdge[]>();
  for (const e of edges) {
    if (!parent.has(e.from) || !parent.has(e.to)) {
      throw new Error(`edge ${e.id} joins ${e.from} and ${e.to}, which are not both nodes`);
    }
    if (deferred.has(e.id)) continue;
    const a = chain(e.from);
    const b = chain(e.to);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    // One end inside the other: a loop on the outer one.
    const region =
      i === 0
        ? undefined
        : i >= a.length || i >= b.length
          ? parent.get(a[i - 1] as string)
          : a[i - 1];
    const depth = region === undefined ? 0 : chain(region).length;
    const list = byRegion.get(region) ?? [];
    // Built field by field: spreading the edge costs more than the rest of this loop together.
    const link: RegionEdge = {
      id: e.id,
      from: e.from,
      to: e.to,
      endFrom: a[depth] as string,
      endTo: b[depth] as string,
      cyclic: cyclic.has(e.id),
    };
    if (e.label !== undefined) link.label = e.label;
    if (e.hidden !== undefined) link.hidden = e.hidden;
    list.push(link);
    byRegion.set(region, list);
  }
  return byRegion;
}

/**
 * Reroutes the edges that pass through a node they do not join (or through a compound node
 * holding neither end, or a node's keep-out area, or another edge's label) around everything,
 * and moves their labels onto the new line. With `crossGroups`, a compound node is crossed
 * instead (its members and keep-out area stay in the way), and a line that runs along its
 * border, weaves through it or goes the long way is rerouted. Grows the drawing when a line
 * goes round its edge.
 */
function avoidBoxes(
  root: Region,
  input: GraphLayoutInput,
  parent: Map<string, string | undefined>,
  deferred: Set<string>,
): void {
  const compound = new Set<string>();
  const keepOut = new Map<string, Box>();
  const walk = (list: GraphNode[]) => {
    for (const n of list) {
      if (n.children && n.children.length > 0) compound.add(n.id);
      if (n.keepOut) {
        const b = root.nodes.get(n.id) as Box;
        keepOut.set(n.id, { ...n.keepOut, x: b.x + n.keepOut.x, y: b.y + n.keepOut.y });
      }
      walk(n.children ?? []);
    }
  };
  walk(input.nodes);
  const around = (id: string): Set<string> => {
    const out = new Set<string>();
    for (let at: string | undefined = id; at !== undefined; at = parent.get(at)) out.add(at);
    return out;
  };
  // Lines rerouted one by one: the first takes the shortest way, the next goes round it. Both
  // orders are tried (from the first edge and from the last); the one crossing less is kept.
  // The other order can only differ when two lines or more were rerouted, and only wins with
  // fewer crossings: without either, it is not tried (most drawings; routing is the costly part).
  // Borders a line must not run along (bands of a wrapped layout are not drawn: they have none).
  const borders = input.crossGroups
    ? [...compound]
        .filter((id) => !isBand(id))
        .map((id) => [id, root.nodes.get(id) as Box] as const)
    : [];
  const ctx = { compound, keepOut, around, parent, deferred, borders };
  const before = new Map(root.edges);
  const moved = rerouteEach(root, input.edges, ctx);
  const first = root.edges;
  const crossings = moved > 1 ? lineCrossings([...first.values()].map((e) => e.points)) : 0;
  if (crossings > 0) {
    root.edges = new Map(before);
    rerouteEach(root, [...input.edges].reverse(), ctx);
    const other = lineCrossings([...root.edges.values()].map((e) => e.points));
    if (other >= crossings) root.edges = first;
  }
  growToHold(root);
}

/** What rerouting needs to know of the graph: compound nodes, keep-out areas, ancestors. */
interface RerouteContext {
  compound: Set<string>;
  keepOut: Map<string, Box>;
  around: (id: string) => Set<string>;
  parent: Map<string, string | undefined>;
  deferred: Set<string>;
  /**
   * With `crossGroups`: every drawn compound node, which a line may cross when it holds neither
   * end (once in, once out) but never run along. Empty: compound nodes are obstacles.
   */
  borders: (readonly [string, Box])[];
}

/**
 * Whether a line keeps to what crossing a grouping allows: no run along any border, and through
 * a grouping holding neither end straight (in once, out once).
 */
function crossesCleanly(points: Point[], borders: RerouteContext["borders"], mine: Set<string>) {
  return borders.every(
    ([id, b]) =>
      !runsAlongOutline(points, b, TRACK_LIMIT, MIN_RUN) &&
      (mine.has(id) || outlineCrossings(points, b) <= 2),
  );
}

/**
 * Reroutes, in the order given, each edge whose line passes through what it must not; returns
 * how many it tried to reroute.
 */
function rerouteEach(root: Region, edges: GraphEdge[], ctx: RerouteContext): number {
  const { compound, keepOut, around, parent, deferred, borders } = ctx;
  const crossGroups = borders.length > 0;
  const used = new Map<string, number>();
  // Every edge's label, with a little room: a line running along its border reads as its.
  // Kept up to date as lines are rerouted (their labels move), not rebuilt for every edge.
  const labels = new Map<string, Box>();
  for (const [id, other] of root.edges) if (other.label) labels.set(id, inflate(other.label, 3));
  let moved = 0;
  for (const e of edges) {
    if (e.hidden || e.from === e.to) continue;
    const laid = root.edges.get(e.id) ?? (deferred.has(e.id) ? { points: [] } : undefined);
    if (!laid) continue;
    const mine = around(e.from);
    for (const id of around(e.to)) mine.add(id);
    const obstacles: Box[] = [];
    for (const [id, b] of root.nodes) {
      if (mine.has(id)) continue;
      if (crossGroups && compound.has(id)) continue;
      // A compound node around neither end is one obstacle; what it holds is inside it. (As a
      // grouping, it is no obstacle: what it holds is, one by one.)
      const p = parent.get(id);
      if (crossGroups) {
        obstacles.push(b);
        continue;
      }
      if (p !== undefined && !mine.has(p)) continue;
      obstacles.push(b);
    }
    for (const [id, b] of keepOut) if (id !== e.from && id !== e.to) obstacles.push(b);
    for (const [id, b] of labels) if (id !== e.id) obstacles.push(b);
    const clear =
      laid.points.length > 0 &&
      !pathHits(laid.points, obstacles) &&
      !(laid.label && obstacles.some((o) => boxesOverlap(o, laid.label as Box))) &&
      crossesCleanly(laid.points, borders, mine);
    // Where groupings may be crossed, a line the layers took the long way (past a grouping
    // rather than through it) is routed again, and the new way kept only when it is shorter.
    const longWay = crossGroups && clear && roundabout(laid.points);
    if (clear && !longWay) continue;
    const from = root.nodes.get(e.from) as Box;
    const to = root.nodes.get(e.to) as Box;
    const lines: Point[][] = [];
    for (const [id, o] of root.edges) if (id !== e.id) lines.push(o.points);
    const points = routeAround({
      from,
      to,
      obstacles,
      fromUsed: used.get(e.from) ?? 0,
      toUsed: used.get(e.to) ?? 0,
      lines,
      borders: borders.map(([, b]) => b),
    });
    if (longWay && (!points || runLength(points) >= runLength(laid.points))) continue;
    moved++;
    if (!points) {
      // Walled in: a line left out of the layers still needs one (straight, then across).
      if (laid.points.length === 0) root.edges.set(e.id, { points: elbow(from, to) });
      continue;
    }
    used.set(e.from, (used.get(e.from) ?? 0) + 1);
    used.set(e.to, (used.get(e.to) ?? 0) + 1);
    const entry: { points: Point[]; label?: Box } = { points };
    if (e.label) {
      const outlines = [...compound]
        .filter((id) => !isBand(id))
        .map((id) => root.nodes.get(id) as Box);
      entry.label = labelOnPath(points, e.label, [...obstacles, from, to], lines, outlines);
    }
    root.edges.set(e.id, entry);
    if (entry.label) labels.set(e.id, inflate(entry.label, 3));
    else labels.delete(e.id);
  }
  return moved;
}

/** An orthogonal line's length along its runs. */
function runLength(points: Point[]): number {
  let n = 0;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1] as Point, points[i] as Point];
    n += Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
  }
  return n;
}

/**
 * A line longer than half again its ends' distance plus 200 units (a turn round one box on the
 * way): gone round something rather than through (test/architecture-render.test.ts holds large
 * architectures to it).
 */
function roundabout(points: Point[]): boolean {
  const a = points[0] as Point;
  const b = points[points.length - 1] as Point;
  return runLength(points) > 1.5 * (Math.abs(a.x - b.x) + Math.abs(a.y - b.y)) + 200;
}

/** A line from the middle of `a`'s side to `b`'s with one bend: the last resort. */
function elbow(a: Box, b: Box): Point[] {
  const ax = a.x + a.width / 2;
  const by = b.y + b.height / 2;
  const down = b.y + b.height / 2 > a.y + a.height / 2;
  const start = { x: ax, y: down ? a.y + a.height : a.y };
  const right = ax < b.x;
  const end = { x: right ? b.x : b.x + b.width, y: by };
  return [start, { x: ax, y: by }, end];
}

/** Lines routed round the outside may leave the drawing: grows it to hold them. */
function growToHold(root: Region): void {
  let x0 = 0;
  let y0 = 0;
  let x1 = root.width;
  let y1 = root.height;
  for (const e of root.edges.values()) {
    for (const p of e.points) {
      x0 = Math.min(x0, p.x);
      y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x);
      y1 = Math.max(y1, p.y);
    }
    if (e.label) {
      x0 = Math.min(x0, e.label.x);
      y0 = Math.min(y0, e.label.y);
      x1 = Math.max(x1, e.label.x + e.label.width);
      y1 = Math.max(y1, e.label.y + e.label.height);
    }
  }
  if (x0 < 0 || y0 < 0) {
    for (const [k, b] of root.nodes) root.nodes.set(k, { ...b, x: b.x - x0, y: b.y - y0 });
    for (const e of root.edges.values()) {
      e.points = e.points.map((p) => ({ x: p.x - x0, y: p.y - y0 }));
      if (e.label) e.label = { ...e.label, x: e.label.x - x0, y: e.label.y - y0 };
    }
  }
  root.width = x1 - x0;
  root.height = y1 - y0;
}

/**
 * One region's layout, stage by stage over a shared state (as d2's layouts are): measure
 * (children first), rank, order, place, ports, route, realise.
 */
function layoutRegion(
  nodes: GraphNode[],
  id: string | undefined,
  byRegion: Map<string | undefined, RegionEdge[]>,
  f: Frame,
  sp: GraphSpacing,
  ranks?: Map<string | undefined, Ranks>,
): Region {
  const edges = byRegion.get(id) ?? [];
  const st = regionState(nodes, edges, f, sp);
  measure(st, (n) => layoutRegion(n.children ?? [], n.id, byRegion, f, sp, ranks));
  rank(st, undefined, ranks && { ranks, id });
  order(st);
  place(st);
  ports(st);
  route(st);
  return realise(st);
}
