/**
 * The last stages of one region's layout: route (each chain an orthogonal line from its port to
 * its port, every bend on its own track in the channel after its layer; self-loops on the far
 * side) and realise (real coordinates from the region's top left, nested regions moved in).
 */
import type { Box } from "../geometry.js";
import type { Point } from "../model.js";
import type { Abstract } from "./frame.js";
import {
  type AbstractEdge,
  BESIDE_GAP,
  type Chain,
  centre,
  type LNode,
  LOOP_LABEL_GAP,
  NO_PADDING,
  type Region,
  type RegionState,
} from "./region.js";
import { endBox, reservedBox } from "./stages.js";
import { type Bend, orderTracks } from "./tracks.js";

export function route(st: RegionState): void {
  const bends = st.chains.map((c) => bendsOf(st, c));
  const tracks = trackPlaces(st, bends);
  st.chains.forEach((c, k) => {
    st.routes.set(c.edge.id, chainRoute(st, c, bends[k] as ChainBend[], tracks));
  });
  for (const e of st.loops) st.routes.set(e.id, loopRoute(st, e.id, e.endFrom, e.label));
}

/** A chain's turn in the channel after layer `rank`, from one across value to another. */
interface ChainBend extends Bend {
  rank: number;
  /** The path step (index of the node the chain reaches after the turn). */
  step: number;
}

/** Where a chain turns: from its port through its dummies' middles to its far port. */
function bendsOf(st: RegionState, c: Chain): ChainBend[] {
  const out: ChainBend[] = [];
  let across = st.portOut.get(c.edge.id) as number;
  for (let i = 1; i < c.path.length; i++) {
    const n = c.path[i] as LNode;
    const target = i === c.path.length - 1 ? (st.portIn.get(c.edge.id) as number) : centre(n);
    if (Math.abs(target - across) > 0.01)
      out.push({ rank: n.rank - 1, step: i, from: across, to: target });
    across = target;
  }
  return out;
}

/** Each bend's track: its own in its channel, the tracks ordered to cross least. */
function trackPlaces(st: RegionState, bends: ChainBend[][]): Map<ChainBend, number> {
  const byChannel = new Map<number, ChainBend[]>();
  for (const list of bends)
    for (const b of list) byChannel.set(b.rank, [...(byChannel.get(b.rank) ?? []), b]);
  // The channel's room is shared by every chain that passes it (as place() sized it).
  const passing = new Array<number>(st.layers.length).fill(0);
  for (const c of st.chains) {
    for (let i = 1; i < c.path.length; i++) {
      const r = (c.path[i - 1] as LNode).rank;
      passing[r] = (passing[r] as number) + 1;
    }
  }
  const at = new Map<ChainBend, number>();
  for (const [r, list] of byChannel) {
    const g = st.gap[r] as number;
    const base = (st.start[r] as number) + (st.thick[r] as number) + (st.lead[r] ?? 0);
    orderTracks(list).forEach((i, k) => {
      at.set(list[i] as ChainBend, base + (g * (k + 1)) / ((passing[r] as number) + 1));
    });
  }
  return at;
}

function chainRoute(
  st: RegionState,
  c: Chain,
  bends: ChainBend[],
  tracks: Map<ChainBend, number>,
): AbstractEdge {
  const e = c.edge;
  const [fromEnd, toEnd] = c.reversed ? [e.to, e.from] : [e.from, e.to];
  const sBox = endBox(st, (c.path[0] as LNode).key, fromEnd);
  const tBox = endBox(st, (c.path[c.path.length - 1] as LNode).key, toEnd);
  let across = st.portOut.get(e.id) as number;
  const pts: { along: number; across: number }[] = [{ along: sBox.along0 + sBox.along, across }];
  for (const b of bends) {
    const ch = tracks.get(b) as number;
    pts.push({ along: ch, across: b.from }, { along: ch, across: b.to });
    across = b.to;
  }
  pts.push({ along: tBox.along0, across });
  const labelNode = c.path.find((n) => n.label === e.id);
  const out: AbstractEdge = { points: c.reversed ? pts.reverse() : pts };
  if (labelNode) out.label = reservedBox(st, labelNode);
  return out;
}

function loopRoute(
  st: RegionState,
  id: string,
  host: string,
  label: { width: number; height: number } | undefined,
): AbstractEdge {
  const box = st.own.get(host) as Abstract;
  const depth = st.loopDepth.get(id) as number;
  const before = st.aside[st.index.get(host) as number]?.loopsBefore === true;
  // Out of the node's side, round and back in, `depth` away across the layers.
  const way = before ? -1 : 1;
  const foot = before ? box.across0 : box.across0 + box.across;
  const a1 = box.along0 + box.along * 0.3;
  const a2 = box.along0 + box.along * 0.7;
  const low = foot + way * depth;
  const out: AbstractEdge = {
    points: [
      { along: a1, across: foot },
      { along: a1, across: low },
      { along: a2, across: low },
      { along: a2, across: foot },
    ],
  };
  if (label) {
    // Beyond the loop's far run, clear of its line.
    const s = st.f.size(label);
    out.label = {
      along0: (a1 + a2) / 2 - s.along / 2,
      across0: before ? low - LOOP_LABEL_GAP - s.across : low + LOOP_LABEL_GAP,
      along: s.along,
      across: s.across,
    };
  }
  return out;
}

/** The box beside a node, in this region's frame: past the node's loops, or before it. */
function besideBox(st: RegionState, n: LNode): Abstract | undefined {
  const beside = st.nodes[n.real]?.beside;
  if (!beside) return undefined;
  const own = st.own.get(n.key) as Abstract;
  const s = st.f.size(beside);
  const aside = st.aside[n.real];
  const loops = aside && !aside.loopsBefore ? aside.loops : 0;
  return {
    along0: own.along0 + (own.along - s.along) / 2,
    across0:
      beside.side === "start"
        ? own.across0 - n.lead
        : own.across0 + own.across + loops + BESIDE_GAP,
    along: s.along,
    across: s.across,
  };
}

/** Real coordinates, shifted so the region starts at (0, 0), with nested regions moved in. */
export function realise(st: RegionState): Region {
  const { f } = st;
  const out: Region = {
    width: 0,
    height: 0,
    nodes: new Map(),
    edges: new Map(),
    against: new Set(st.chains.filter((c) => c.reversed).map((c) => c.edge.id)),
  };
  const nodes = new Map<string, Box>();
  for (const [k, a] of st.own) nodes.set(k, f.toReal(a));
  for (const n of st.lnodes) {
    const b = n.real >= 0 ? besideBox(st, n) : undefined;
    if (b) nodes.set(st.nodes[n.real]?.beside?.id as string, f.toReal(b));
  }
  const reserved = st.lnodes.filter((n) => n.real >= 0).map((n) => f.toReal(reservedBox(st, n)));
  const edges = new Map<string, { points: Point[]; label?: Box }>();
  for (const [k, e] of st.routes) {
    const entry: { points: Point[]; label?: Box } = { points: simplify(e.points.map(f.point)) };
    if (e.label) entry.label = f.toReal(e.label);
    edges.set(k, entry);
  }
  const all = [...reserved, ...[...edges.values()].flatMap(edgeBoxes)];
  const dx0 = all.length ? Math.min(...all.map((b) => b.x)) : 0;
  const dy0 = all.length ? Math.min(...all.map((b) => b.y)) : 0;
  out.width = all.length ? Math.max(...all.map((b) => b.x + b.width)) - dx0 : 0;
  out.height = all.length ? Math.max(...all.map((b) => b.y + b.height)) - dy0 : 0;
  const shift = (b: Box): Box => ({ ...b, x: b.x - dx0, y: b.y - dy0 });
  for (const [k, b] of nodes) {
    const s = shift(b);
    out.nodes.set(k, s);
    const r = st.inner.get(k);
    if (r) moveIn(out, r, st.nodes[st.index.get(k) as number]?.padding ?? NO_PADDING, s);
  }
  for (const [k, e] of edges) {
    const moved: { points: Point[]; label?: Box } = {
      points: e.points.map((p) => ({ x: p.x - dx0, y: p.y - dy0 })),
    };
    if (e.label) moved.label = shift(e.label);
    out.edges.set(k, moved);
  }
  return out;
}

function edgeBoxes(e: { points: Point[]; label?: Box }): Box[] {
  const pts = e.points.map((p) => ({ x: p.x, y: p.y, width: 0, height: 0 }));
  return e.label ? [e.label, ...pts] : pts;
}

function moveIn(out: Region, r: Region, p: { top: number; left: number }, at: Box): void {
  const dx = at.x + p.left;
  const dy = at.y + p.top;
  for (const id of r.against) out.against.add(id);
  for (const [k, b] of r.nodes) out.nodes.set(k, { ...b, x: b.x + dx, y: b.y + dy });
  for (const [k, e] of r.edges) {
    const moved: { points: Point[]; label?: Box } = {
      points: e.points.map((q) => ({ x: q.x + dx, y: q.y + dy })),
    };
    if (e.label) moved.label = { ...e.label, x: e.label.x + dx, y: e.label.y + dy };
    out.edges.set(k, moved);
  }
}

/** Drops repeated points and the middle of three points on one line. */
export function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const prev = out[out.length - 2];
    if (last && prev) {
      const sameX = Math.abs(prev.x - last.x) < 0.01 && Math.abs(last.x - p.x) < 0.01;
      const sameY = Math.abs(prev.y - last.y) < 0.01 && Math.abs(last.y - p.y) < 0.01;
      if (sameX || sameY) out.pop();
    }
    out.push(p);
  }
  return out;
}
