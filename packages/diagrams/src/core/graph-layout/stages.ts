/**
 * The first stages of one region's layout, each filling its part of the shared state:
 * measure (sizes, room for loops and boxes beside), rank (layers and edge chains), order
 * (crossing reduction and order hints), place (positions across, layers along, own boxes).
 */
import type { Box } from "../geometry.js";
import type { Abstract } from "./frame.js";
import { orderLayers } from "./order.js";
import { placeAcross } from "./place.js";
import { rankNodes } from "./rank.js";
import {
  BESIDE_GAP,
  type Chain,
  type LNode,
  LOOP_LABEL_GAP,
  NO_PADDING,
  type Region,
  type RegionEdge,
  type RegionNode,
  type RegionState,
} from "./region.js";

/** Sizes (children first: a compound node is its region plus padding) and the room beside. */
export function measure(st: RegionState, layoutInner: (n: RegionNode) => Region): void {
  st.sizes = st.nodes.map((n) => {
    if (!n.children || n.children.length === 0) return { width: n.width, height: n.height };
    const r = layoutInner(n);
    st.inner.set(n.id, r);
    const p = n.padding ?? NO_PADDING;
    return {
      width: Math.max(n.width, r.width + p.left + p.right),
      height: Math.max(n.height, r.height + p.top + p.bottom),
    };
  });
  measureAside(st);
}

/**
 * The room beside each node across the layers: self-loops hang on the far side, each label
 * beyond its own loop (not on its line), and a box beside the node (a note) on its chosen side.
 * A note on the far side takes the loops' place and the loops hang on the near side instead, so
 * the note's leader never crosses a loop.
 */
function measureAside(st: RegionState): void {
  st.aside = st.nodes.map((n) => ({
    along: 0,
    across: 0,
    lead: 0,
    loops: 0,
    loopsBefore: n.beside?.side === "end",
  }));
  for (const e of st.loops) {
    const space = st.aside[st.index.get(e.endFrom) as number] as RegionState["aside"][number];
    const lab = e.label ? st.f.size(e.label) : { along: 0, across: 0 };
    const depth = space.loops + 14;
    st.loopDepth.set(e.id, depth);
    space.loops = depth + (lab.across > 0 ? LOOP_LABEL_GAP + lab.across : 0) + LOOP_LABEL_GAP;
    space.along = Math.max(space.along, lab.along);
  }
  st.nodes.forEach((n, i) => {
    const space = st.aside[i] as RegionState["aside"][number];
    if (space.loopsBefore) space.lead = space.loops;
    else space.across = space.loops;
    if (!n.beside) return;
    const s = st.f.size(n.beside);
    space.along = Math.max(space.along, s.along);
    if (n.beside.side === "start") space.lead += s.across + BESIDE_GAP;
    else space.across += s.across + BESIDE_GAP;
  });
}

/** Each node's layer and which links are turned round (graph-layout/rank.ts). */
export type Ranks = ReturnType<typeof rankNodes>;

/**
 * Layers for the region's nodes and, for each link, a chain of points through them. With
 * `known` (each region's ranks by its id, from another direction's layout or estimate of the
 * same description: ranking reads no size), the region's ranks are read there, or kept there.
 */
export function rank(
  st: RegionState,
  groups?: string[][],
  known?: { ranks: Map<string | undefined, Ranks>; id: string | undefined },
): void {
  const { f, index } = st;
  const ranks =
    known?.ranks.get(known.id) ??
    rankNodes(
      st.nodes.map((n) => n.rank),
      st.links.map((e) => [index.get(e.endFrom) as number, index.get(e.endTo) as number]),
      st.links.map((e) => e.cyclic),
      groups,
    );
  known?.ranks.set(known.id, ranks);
  st.lnodes = st.nodes.map((n, i) => {
    const s = f.size(st.sizes[i] as { width: number; height: number });
    const a = st.aside[i] as RegionState["aside"][number];
    return {
      key: n.id,
      real: i,
      along: Math.max(s.along, a.along),
      across: s.across + a.across + a.lead,
      own: s.across,
      lead: a.lead,
      rank: ranks.rank[i] as number,
      order: i,
      pos: 0,
      ...(n.order === undefined ? {} : { hint: n.order }),
    };
  });
  st.chains = st.links.map((e, k) => chainOf(st, e, ranks.reversed[k] === true));
}

function chainOf(st: RegionState, e: RegionEdge, reversed: boolean): Chain {
  const ends = [st.index.get(e.endFrom) as number, st.index.get(e.endTo) as number];
  const [a, b] = reversed ? [ends[1], ends[0]] : ends;
  const from = st.lnodes[a as number] as LNode;
  const to = st.lnodes[b as number] as LNode;
  // The label sits in the middle layer (an odd one: label layers lie between node layers).
  const mid = from.rank + Math.max(1, Math.floor((to.rank - from.rank) / 2) | 1);
  const path: LNode[] = [from];
  for (let r = from.rank + 1; r < to.rank; r++) {
    const d: LNode = {
      key: `${e.id}#${r}`,
      real: -1,
      along: 0,
      across: 0,
      own: 0,
      lead: 0,
      rank: r,
      order: a as number,
      pos: 0,
    };
    if (r === mid && e.label) {
      const s = st.f.size(e.label);
      d.along = s.along;
      d.across = s.across;
      d.own = s.across;
      d.label = e.id;
    }
    st.lnodes.push(d);
    path.push(d);
  }
  path.push(to);
  return { edge: e, path, reversed };
}

/** Crossing reduction, then order hints: hinted nodes of a layer take their slots in order. */
export function order(st: RegionState): void {
  st.layers = orderLayers(
    st.lnodes,
    st.chains.map((c) => c.path),
    st.chains.map((c) => {
      const [fromEnd, toEnd] = c.reversed ? [c.edge.to, c.edge.from] : [c.edge.from, c.edge.to];
      const first = c.path[0] as LNode;
      const last = c.path[c.path.length - 1] as LNode;
      return [nestedOffset(st, first.key, fromEnd), nestedOffset(st, last.key, toEnd)];
    }),
  );
  for (const l of st.layers) {
    const slots = l.flatMap((n, i) => (n.hint === undefined ? [] : [i]));
    if (slots.length < 2) continue;
    const hinted = slots
      .map((i) => l[i] as LNode)
      .sort((a, b) => (a.hint as number) - (b.hint as number));
    slots.forEach((slot, k) => {
      l[slot] = hinted[k] as LNode;
      (l[slot] as LNode).order = slot;
    });
  }
}

/**
 * Where across its node an edge's end lies, as a fraction of the node's width across: the middle
 * of a plain node; for an end nested in a compound node, the middle of the nested box.
 */
function nestedOffset(st: RegionState, node: string, end: string): number {
  const r = st.inner.get(node);
  const b = node === end ? undefined : r?.nodes.get(end);
  if (!b) return 0.5;
  const i = st.index.get(node) as number;
  const p = st.nodes[i]?.padding ?? NO_PADDING;
  const a = st.f.fromReal({ ...b, x: b.x + p.left, y: b.y + p.top });
  const size = st.f.size(st.sizes[i] as { width: number; height: number }).across;
  return Math.min(0.99, Math.max(0.01, (a.across0 + a.across / 2) / Math.max(1, size)));
}

/**
 * Positions across (least squares), layers along: each as thick as its thickest node, with a
 * channel after it wide enough for one track per edge that bends there. Then each node's own
 * box, and the boxes of nested nodes in this region's frame (for edges crossing borders).
 */
export function place(st: RegionState): void {
  placeAcross(
    st.layers,
    st.chains.map((c) => c.path),
    (a, b) => spaceBetween(st, a, b),
  );
  placeLayers(st);
}

/** The least room across between two neighbours of a layer. */
export function spaceBetween(st: RegionState, a: LNode, b: LNode): number {
  return a.real >= 0 && b.real >= 0 ? st.sp.node : st.sp.edge;
}

/**
 * Layers along (each as thick as its thickest node, a channel after it for its tracks), then
 * each real node's own box and the nested boxes. `room`, when given, is kept clear before each
 * layer's tracks (`after`) and before each layer (`before`): the borders of boxes drawn round
 * several layers (graph-layout/clustered.ts).
 */
export function placeLayers(st: RegionState, room?: { before: number[]; after: number[] }): void {
  const { sp, layers } = st;
  const count = layers.length;
  st.thick = layers.map((l) => Math.max(0, ...l.map((n) => n.along)));
  const bends = new Array<number>(count).fill(0);
  for (const c of st.chains) {
    for (let i = 1; i < c.path.length; i++) {
      const r = (c.path[i - 1] as LNode).rank;
      bends[r] = (bends[r] as number) + 1;
    }
  }
  st.gap = bends.map((b) => Math.max(sp.layer / 2, (b + 1) * TRACK));
  st.start = [];
  st.lead = room?.after ?? [];
  let at = 0;
  for (let r = 0; r < count; r++) {
    at += room?.before[r] ?? 0;
    st.start.push(at);
    at += (st.thick[r] as number) + (r < count - 1 ? (st.gap[r] as number) : 0);
    at += r < count - 1 ? (room?.after[r] ?? 0) : 0;
  }
  for (const n of st.lnodes) if (n.real >= 0) st.own.set(n.key, ownBox(st, n));
  placeNested(st);
}

/** The distance between two tracks in a channel. */
const TRACK = 8;

/** The space a layered node holds: its own box, its loops and the box beside it. */
export function reservedBox(st: RegionState, n: LNode): Abstract {
  const thick = st.thick[n.rank] as number;
  return {
    along0: (st.start[n.rank] as number) + (thick - n.along) / 2,
    across0: n.pos,
    along: n.along,
    across: n.across,
  };
}

function ownBox(st: RegionState, n: LNode): Abstract {
  const s = st.f.size(st.sizes[n.real] as { width: number; height: number });
  return {
    along0: (st.start[n.rank] as number) + ((st.thick[n.rank] as number) - s.along) / 2,
    across0: n.pos + n.lead,
    along: s.along,
    across: s.across,
  };
}

function placeNested(st: RegionState): void {
  for (const [cid, r] of st.inner) {
    const node = st.nodes[st.index.get(cid) as number] as RegionNode;
    const p = node.padding ?? NO_PADDING;
    const outer = st.f.toReal(st.own.get(cid) as Abstract);
    const m = new Map<string, Box>();
    for (const [k, b] of r.nodes) {
      m.set(k, { ...b, x: b.x + outer.x + p.left, y: b.y + outer.y + p.top });
    }
    st.placedInner.set(cid, m);
  }
}

/** The box an edge's end has in this region's frame: a node of it, or one nested inside. */
export function endBox(st: RegionState, end: string, actual: string): Abstract {
  if (end === actual) return st.own.get(end) as Abstract;
  const b = st.placedInner.get(end)?.get(actual);
  return b ? st.f.fromReal(b) : (st.own.get(end) as Abstract);
}
