/**
 * The whole drawing as one layered graph, as Graphviz dot lays out clusters: every leaf ranked
 * and ordered together, each compound node's members (and the points of lines between them) a
 * contiguous block in every layer it spans, sibling compounds in one order across all layers,
 * then the compound boxes drawn round their members. Laid region by region instead, a compound
 * takes one layer of the level holding it, so a line from a nested box leaves from wherever
 * its box sits inside, and a box beside a compound with lines to one member and from another
 * sends one backwards. Returns undefined for what this does not handle (lines to a compound,
 * ranks or order hints, boxes beside) or when a compound's box would cover another box.
 */
import { type Box, boxesOverlap } from "../geometry.js";
import { layerCrossings } from "./crossing-count.js";
import type { Frame } from "./frame.js";
import { placeAcross } from "./place.js";
import { ports } from "./ports.js";
import {
  type LNode,
  NO_PADDING,
  type Region,
  type RegionEdge,
  type RegionNode,
  type RegionState,
  regionState,
  type Spacing,
} from "./region.js";
import { realise, route } from "./routes.js";
import { measure, order, placeLayers, rank, spaceBetween } from "./stages.js";

/** Sweeps of the constrained order after the free one. */
const SWEEPS = 8;

/** The compound tree of the drawing: leaves, compounds and each one's chain of compounds. */
interface Tree {
  leaves: RegionNode[];
  compounds: Map<string, RegionNode>;
  /** Each leaf's and compound's enclosing compounds, outermost first. */
  chain: Map<string, string[]>;
}

function treeOf(nodes: RegionNode[]): Tree | undefined {
  const t: Tree = { leaves: [], compounds: new Map(), chain: new Map() };
  let ok = true;
  const walk = (list: RegionNode[], above: string[]) => {
    for (const n of list) {
      if (n.rank !== undefined || n.order !== undefined || n.beside) ok = false;
      t.chain.set(n.id, above);
      if (n.children && n.children.length > 0) {
        t.compounds.set(n.id, n);
        walk(n.children, [...above, n.id]);
      } else t.leaves.push(n);
    }
  };
  walk(nodes, []);
  return ok && t.compounds.size > 0 ? t : undefined;
}

/** The compounds enclosing both of two chains (their common start). */
function common(a: string[], b: string[]): string[] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** Padding of a compound along and across the layers, in the layout's frame. */
function framePadding(f: Frame, n: RegionNode) {
  const p = n.padding ?? NO_PADDING;
  const outer = f.fromReal({
    x: 0,
    y: 0,
    width: 100 + p.left + p.right,
    height: 100 + p.top + p.bottom,
  });
  const inner = f.fromReal({ x: p.left, y: p.top, width: 100, height: 100 });
  return {
    alongStart: inner.along0 - outer.along0,
    alongEnd: outer.along0 + outer.along - inner.along0 - inner.along,
    acrossStart: inner.across0 - outer.across0,
    acrossEnd: outer.across0 + outer.across - inner.across0 - inner.across,
  };
}

type Pad = ReturnType<typeof framePadding>;

/** The layout of the whole drawing ranked as one graph, or undefined (see the module's note). */
export function layClustered(
  nodes: RegionNode[],
  edges: RegionEdge[],
  f: Frame,
  sp: Spacing,
): Region | undefined {
  const t = treeOf(nodes);
  if (!t) return undefined;
  if (edges.some((e) => t.compounds.has(e.from) || t.compounds.has(e.to))) return undefined;
  const st = regionState(
    t.leaves.map((n) => ({ ...n, children: [] })),
    edges.map((e) => ({ ...e, endFrom: e.from, endTo: e.to })),
    f,
    sp,
  );
  measure(st, () => {
    throw new Error("a leaf has no inside");
  });
  rank(
    st,
    st.nodes.map((n) => t.chain.get(n.id) as string[]),
  );
  order(st);
  const chainOf = lnodeChains(st, t);
  const { tracks, spare } = holdPlaces(st, t, chainOf);
  const pads = new Map([...t.compounds].map(([id, n]) => [id, framePadding(f, n)]));
  contiguous(st, chainOf, [...st.chains.map((c) => c.path), ...tracks]);
  dropSpare(st, chainOf, spare);
  placeAcross(
    st.layers,
    st.chains.map((c) => c.path),
    (a, b) => spaceBetween(st, a, b),
  );
  if (!pushApart(st, chainOf, pads)) return undefined;
  placeLayers(st, alongRoom(st, chainOf, pads));
  ports(st);
  route(st);
  const out = realise(st);
  const labelChain = new Map<string, string[]>();
  for (const [n, chain] of chainOf) if (n.label !== undefined) labelChain.set(n.label, chain);
  return drawCompounds(out, t, edges, labelChain) ? out : undefined;
}

/**
 * Each layered node's enclosing compounds: a leaf's own; a line's point in a layer, the
 * compounds its ends share and, while a compound round one end still has boxes in that layer,
 * that one too (the nearer end's when both do). A line leaving a compound then runs inside it
 * to its last layer and leaves along the flow, instead of leaving sideways across whatever
 * nested compound lies between its box and the border.
 */
function lnodeChains(st: RegionState, t: Tree): Map<LNode, string[]> {
  const out = new Map<LNode, string[]>();
  const span = new Map<string, [number, number]>();
  for (const n of st.lnodes) {
    if (n.real < 0) continue;
    const chain = t.chain.get(n.key) as string[];
    out.set(n, chain);
    for (const c of chain) {
      const s = span.get(c) ?? [n.rank, n.rank];
      span.set(c, [Math.min(s[0], n.rank), Math.max(s[1], n.rank)]);
    }
  }
  const within = (chain: string[], from: number, r: number) => {
    let k = from;
    while (k < chain.length) {
      const [lo, hi] = span.get(chain[k] as string) as [number, number];
      if (r < lo || r > hi) break;
      k++;
    }
    return chain.slice(0, k);
  };
  for (const c of st.chains) {
    const first = c.path[0] as LNode;
    const last = c.path[c.path.length - 1] as LNode;
    const ca = t.chain.get(first.key) as string[];
    const cb = t.chain.get(last.key) as string[];
    const shared = common(ca, cb).length;
    for (const n of c.path.slice(1, -1)) {
      const a = within(ca, shared, n.rank);
      const b = within(cb, shared, n.rank);
      const nearerA = n.rank - first.rank <= last.rank - n.rank;
      out.set(n, b.length === shared || (a.length > shared && nearerA) ? a : b);
    }
  }
  return out;
}

/**
 * Every compound gets an empty node in each layer it spans, joined layer to layer as a track:
 * ordering counts a line passing from one side of a block to the other as crossing that track,
 * as it crosses the box drawn there (and is then rerouted round it, crossing more). Where the
 * compound has a member or line the node is spare and goes after ordering; elsewhere it keeps
 * the block's place (the box is drawn across every layer it spans).
 */
function holdPlaces(
  st: RegionState,
  t: Tree,
  chainOf: Map<LNode, string[]>,
): { tracks: LNode[][]; spare: Set<LNode> } {
  const tracks: LNode[][] = [];
  const spare = new Set<LNode>();
  const span = new Map<string, [number, number]>();
  const seen = new Set<string>();
  for (const [n, chain] of chainOf)
    for (const c of chain) {
      const s = span.get(c) ?? [n.rank, n.rank];
      span.set(c, [Math.min(s[0], n.rank), Math.max(s[1], n.rank)]);
      seen.add(`${c}@${n.rank}`);
    }
  for (const [c, [lo, hi]] of span) {
    const track: LNode[] = [];
    tracks.push(track);
    for (let r = lo; r <= hi; r++) {
      const l = st.layers[r] as LNode[];
      const n: LNode = {
        key: `${c}#${r}`,
        real: -1,
        along: 0,
        across: 0,
        own: 0,
        lead: 0,
        rank: r,
        order: l.length,
        pos: 0,
      };
      l.push(n);
      track.push(n);
      chainOf.set(n, [...(t.chain.get(c) as string[]), c]);
      if (seen.has(`${c}@${r}`)) spare.add(n);
    }
  }
  return { tracks, spare };
}

/** Takes the spare track nodes out of the layers once they are ordered. */
function dropSpare(st: RegionState, chainOf: Map<LNode, string[]>, spare: Set<LNode>): void {
  st.layers = st.layers.map((l) => l.filter((n) => !spare.has(n)));
  for (const n of spare) chainOf.delete(n);
  for (const l of st.layers) {
    l.forEach((n, i) => {
      n.order = i;
    });
  }
}

/**
 * Reorders each layer so every compound's members form one block, sibling compounds in one
 * order in every layer (from where their members sat in the free order), then sweeps
 * barycentres under those rules and keeps the order crossing least.
 */
function contiguous(st: RegionState, chainOf: Map<LNode, string[]>, paths: LNode[][]): void {
  const index = new Map<LNode, number>();
  const mark = () => {
    for (const l of st.layers) numberLayer(l, index);
  };
  mark();
  // Each compound's place among its siblings: from the free order, then before each sweep
  // from where its members' neighbours lie (a block moves past another only as a whole).
  const neighbours = sidesOf(paths);
  const segments = segmentsByLayer(paths);
  const at = (n: LNode) => ((index.get(n) as number) + 0.5) / (st.layers[n.rank] as LNode[]).length;
  let fixed = siblingOrder(st, chainOf, at);
  const key = new Map<LNode, number>(index);
  const sortLayer = (l: LNode[]) => {
    const k = compoundKeys(st, chainOf, key);
    l.sort((a, b) => compare(chainOf, a, b, key, k, fixed));
  };
  for (const l of st.layers) sortLayer(l);
  mark();
  let best = st.layers.map((l) => [...l]);
  let bestCount = crossingsAt(segments, index);
  for (let s = 0; s < SWEEPS && bestCount > 0; s++) {
    const down = s % 2 === 0;
    if (s > 0) {
      fixed = siblingOrder(st, chainOf, (n) => {
        const nb = [...(neighbours.up.get(n) ?? []), ...(neighbours.down.get(n) ?? [])];
        return nb.length === 0 ? at(n) : nb.reduce((sum, m) => sum + at(m), 0) / nb.length;
      });
      for (const l of st.layers) sortLayer(l);
      mark();
    }
    const rs = st.layers.map((_, r) => r);
    for (const r of down ? rs : rs.reverse()) {
      const l = st.layers[r] as LNode[];
      for (const n of l) {
        const nb = (down ? neighbours.up : neighbours.down).get(n) ?? [];
        if (nb.length > 0)
          key.set(n, nb.reduce((sum, m) => sum + (index.get(m) as number), 0) / nb.length);
      }
      sortLayer(l);
      numberLayer(l, index);
    }
    transposeUnits(st, chainOf, index, neighbours);
    for (const l of st.layers) numberLayer(l, key);
    const c = crossingsAt(segments, index);
    if (c < bestCount) {
      bestCount = c;
      best = st.layers.map((l) => [...l]);
    }
  }
  st.layers = best;
  mark();
  swapSiblings(st, chainOf, segments, index, bestCount);
  for (const l of st.layers) {
    l.forEach((n, i) => {
      n.order = i;
    });
  }
}

/**
 * Swaps two sibling compounds next to each other in every layer holding both (whatever lies
 * between them stays between), while that crosses less: the sweeps move a block only with the
 * mean of its members, which can leave two blocks the wrong way round for all of them.
 */
function swapSiblings(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  segments: [LNode, LNode][][],
  index: Map<LNode, number>,
  count: number,
): void {
  let now = count;
  for (let improved = true, round = 0; improved && now > 0 && round < 4; round++) {
    improved = false;
    for (const [a, b, depth] of neighbourSiblings(st, chainOf)) {
      const before = st.layers.map((l) => [...l]);
      for (const [r, l] of st.layers.entries()) st.layers[r] = swapRuns(l, chainOf, a, b, depth);
      for (const l of st.layers) numberLayer(l, index);
      const c = crossingsAt(segments, index);
      if (c < now) {
        now = c;
        improved = true;
        continue;
      }
      st.layers = before;
      for (const l of st.layers) numberLayer(l, index);
    }
  }
}

/** Pairs of sibling compounds with no sibling between them in any layer, first one first. */
function neighbourSiblings(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
): [string, string, number][] {
  const pairs = new Map<string, [string, string, number]>();
  const apart = new Set<string>();
  for (const l of st.layers) {
    // Per parent, the sibling compounds in this layer in order.
    const seen = new Map<string, string[]>();
    for (const n of l) {
      const chain = chainOf.get(n) as string[];
      for (let d = 0; d < chain.length; d++) {
        const parent = chain.slice(0, d).join("/");
        const list = seen.get(parent) ?? [];
        if (list[list.length - 1] !== chain[d]) list.push(chain[d] as string);
        seen.set(parent, list);
      }
    }
    for (const list of seen.values()) {
      for (let i = 0; i < list.length; i++)
        for (let j = i + 2; j < list.length; j++) apart.add(`${list[i]}|${list[j]}`);
      for (let i = 0; i + 1 < list.length; i++) {
        const a = list[i] as string;
        const b = list[i + 1] as string;
        const depth = (
          chainOf.get(l.find((n) => chainOf.get(n)?.includes(a)) as LNode) as string[]
        ).indexOf(a);
        pairs.set(`${a}|${b}`, [a, b, depth]);
      }
    }
  }
  return [...pairs].filter(([k]) => !apart.has(k)).map(([, p]) => p);
}

/** The layer with compound `a`'s run and `b`'s run (after it) trading places. */
function swapRuns(
  l: LNode[],
  chainOf: Map<LNode, string[]>,
  a: string,
  b: string,
  depth: number,
): LNode[] {
  const inA = (n: LNode) => (chainOf.get(n) as string[])[depth] === a;
  const inB = (n: LNode) => (chainOf.get(n) as string[])[depth] === b;
  const first = l.findIndex(inA);
  const last = l.findLastIndex(inB);
  if (first < 0 || last < 0) return l;
  const mid = l.slice(first, last + 1);
  const runA = mid.filter(inA);
  const runB = mid.filter(inB);
  const between = mid.filter((n) => !inA(n) && !inB(n));
  return [...l.slice(0, first), ...runB, ...between, ...runA, ...l.slice(last + 1)];
}

/** Each node of the layer mapped to its place in it. */
function numberLayer(l: LNode[], into: Map<LNode, number>): void {
  l.forEach((n, i) => {
    into.set(n, i);
  });
}

/**
 * Swaps two neighbouring units of a layer while that removes crossings with the layers on both
 * sides, as dot's transposition does: a unit is a node, or a compound's whole run in the layer,
 * and the two must have the same compound round them (so no block is broken). Two compound
 * runs are not swapped here, as siblings keep one order in every layer.
 */
function transposeUnits(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  index: Map<LNode, number>,
  nb: { up: Map<LNode, LNode[]>; down: Map<LNode, LNode[]> },
): void {
  // Pairs of lines, one from each unit, whose far ends lie in the order that crosses them.
  const cost = (a: LNode[], b: LNode[]) => {
    let c = 0;
    for (const side of [nb.up, nb.down])
      for (const u of a)
        for (const x of side.get(u) ?? [])
          for (const v of b)
            for (const y of side.get(v) ?? [])
              if ((index.get(x) as number) > (index.get(y) as number)) c++;
    return c;
  };
  // The run of nodes from `i` stepping by `dir` that share `at` at `depth` (or `i` alone).
  const run = (l: LNode[], i: number, depth: number, dir: 1 | -1) => {
    const at = (chainOf.get(l[i] as LNode) as string[])[depth];
    let j = i;
    if (at !== undefined)
      while (l[j + dir] && (chainOf.get(l[j + dir] as LNode) as string[])[depth] === at) j += dir;
    return { j, block: at !== undefined };
  };
  for (let improved = true, round = 0; improved && round < 8; round++) {
    improved = false;
    for (const l of st.layers) {
      for (let i = 0; i + 1 < l.length; i++) {
        const ca = chainOf.get(l[i] as LNode) as string[];
        const cb = chainOf.get(l[i + 1] as LNode) as string[];
        let depth = 0;
        while (depth < ca.length && depth < cb.length && ca[depth] === cb[depth]) depth++;
        const a = run(l, i, depth, -1);
        const b = run(l, i + 1, depth, 1);
        if (a.block && b.block) continue;
        const left = l.slice(a.j, i + 1);
        const right = l.slice(i + 1, b.j + 1);
        if (cost(right, left) >= cost(left, right)) continue;
        l.splice(a.j, left.length + right.length, ...right, ...left);
        for (let k = a.j; k <= b.j; k++) index.set(l[k] as LNode, k);
        improved = true;
      }
    }
  }
}

/** Sibling compounds ranked by the mean of `value` over their members in every layer. */
function siblingOrder(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  value: (n: LNode) => number,
): Map<string, number> {
  const sum = new Map<string, [number, number]>();
  for (const l of st.layers) {
    for (const n of l) {
      const v = value(n);
      for (const c of chainOf.get(n) ?? []) {
        const s = sum.get(c) ?? [0, 0];
        sum.set(c, [s[0] + v, s[1] + 1]);
      }
    }
  }
  return new Map(
    [...sum]
      .map(([c, [a, k]]) => [c, a / k] as const)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .map(([c], i) => [c, i]),
  );
}

/**
 * Each compound's key for this sort: the mean of its members' keys, then handed out again in
 * the compounds' fixed order among their siblings, so siblings keep that order in every layer.
 */
function compoundKeys(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  key: Map<LNode, number>,
): Map<string, number> {
  const sum = new Map<string, [number, number]>();
  for (const l of st.layers) {
    for (const n of l) {
      for (const c of chainOf.get(n) ?? []) {
        const s = sum.get(c) ?? [0, 0];
        sum.set(c, [s[0] + (key.get(n) as number), s[1] + 1]);
      }
    }
  }
  return new Map([...sum].map(([c, [a, k]]) => [c, a / k]));
}

/** Two nodes of a layer compared where their chains part: compound blocks as units. */
function compare(
  chainOf: Map<LNode, string[]>,
  a: LNode,
  b: LNode,
  key: Map<LNode, number>,
  ck: Map<string, number>,
  fixed: Map<string, number>,
): number {
  const ca = chainOf.get(a) as string[];
  const cb = chainOf.get(b) as string[];
  let i = 0;
  while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
  const ua = ca[i];
  const ub = cb[i];
  // Two sibling compounds: their fixed order.
  if (ua !== undefined && ub !== undefined)
    return (fixed.get(ua) as number) - (fixed.get(ub) as number);
  const ka = ua === undefined ? (key.get(a) as number) : (ck.get(ua) as number);
  const kb = ub === undefined ? (key.get(b) as number) : (ck.get(ub) as number);
  if (ka !== kb) return ka - kb;
  // A tie between a block and a node puts the whole block first: broken member by member, it
  // could put the node inside the block.
  if (ua !== undefined || ub !== undefined) return ua === undefined ? 1 : -1;
  return a.order - b.order;
}

function sidesOf(paths: LNode[][]): { up: Map<LNode, LNode[]>; down: Map<LNode, LNode[]> } {
  const up = new Map<LNode, LNode[]>();
  const down = new Map<LNode, LNode[]>();
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) {
      const a = path[i - 1] as LNode;
      const b = path[i] as LNode;
      up.set(b, [...(up.get(b) ?? []), a]);
      down.set(a, [...(down.get(a) ?? []), b]);
    }
  }
  return { up, down };
}

/** The segments of `paths` between each two neighbouring layers, keyed by the upper layer. */
function segmentsByLayer(paths: LNode[][]): [LNode, LNode][][] {
  const byLayer = new Map<number, [LNode, LNode][]>();
  for (const path of paths) {
    for (let i = 1; i < path.length; i++) {
      const a = path[i - 1] as LNode;
      const list = byLayer.get(a.rank) ?? [];
      list.push([a, path[i] as LNode]);
      byLayer.set(a.rank, list);
    }
  }
  return [...byLayer.values()];
}

/** Crossings between neighbouring layers (segments from the middles of their nodes). */
function crossingsAt(segments: [LNode, LNode][][], index: Map<LNode, number>): number {
  return layerCrossings(
    segments,
    (s) => index.get(s[0]) as number,
    (s) => index.get(s[1]) as number,
  );
}

/** What the rules across move: a node's place, or a compound block's first or last place. */
type Slot = { pos: number; across: number };

/** A rule `to.pos ≥ from.pos + room`. */
type Rule = [Slot, Slot, number];

/**
 * Moves nodes across (only ever further on) until no compound's block, padded, reaches into a
 * node or a sibling block it does not hold in any layer it spans: each block has a first and a
 * last place its members keep within, and what lies before or after it in a layer it spans
 * keeps clear of those. False if the rules conflict (they then form a cycle).
 */
function pushApart(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  pads: Map<string, Pad>,
): boolean {
  const rules: Rule[] = [];
  const room = (a: LNode, b: LNode) => {
    const ca = chainOf.get(a) as string[];
    const cb = chainOf.get(b) as string[];
    let extra = 0;
    for (const c of ca) if (!cb.includes(c)) extra += (pads.get(c) as Pad).acrossEnd;
    for (const c of cb) if (!ca.includes(c)) extra += (pads.get(c) as Pad).acrossStart;
    return a.across + spaceBetween(st, a, b) + extra;
  };
  for (const l of st.layers)
    for (let i = 1; i < l.length; i++) {
      const a = l[i - 1] as LNode;
      const b = l[i] as LNode;
      rules.push([a, b, room(a, b)]);
    }
  const members = new Map<string, LNode[]>();
  for (const [n, chain] of chainOf)
    for (const c of chain) members.set(c, [...(members.get(c) ?? []), n]);
  const ends = new Map<string, [Slot, Slot]>();
  for (const [c, inside] of members) {
    const lo: Slot = { pos: Number.NEGATIVE_INFINITY, across: 0 };
    const hi: Slot = { pos: Number.NEGATIVE_INFINITY, across: 0 };
    ends.set(c, [lo, hi]);
    const p = pads.get(c) as Pad;
    for (const m of inside) rules.push([lo, m, p.acrossStart], [m, hi, m.across + p.acrossEnd]);
  }
  // A nested block keeps within the padding of the one holding it.
  for (const [c, inside] of members) {
    const chain = chainOf.get(inside[0] as LNode) as string[];
    const outer = chain[chain.indexOf(c) - 1];
    if (outer === undefined) continue;
    const [lo, hi] = ends.get(c) as [Slot, Slot];
    const [olo, ohi] = ends.get(outer) as [Slot, Slot];
    const p = pads.get(outer) as Pad;
    rules.push([olo, lo, p.acrossStart], [hi, ohi, p.acrossEnd]);
  }
  // What lies next to a block in a layer it spans: a node, or a sibling block as a whole.
  const sideOf = (n: LNode, depth: number, end: 0 | 1): Slot => {
    const c = (chainOf.get(n) as string[])[depth];
    return c === undefined ? n : (ends.get(c) as [Slot, Slot])[end];
  };
  for (const [c, inside] of members) {
    const chain = [...(chainOf.get(inside[0] as LNode) as string[])];
    const depth = chain.indexOf(c);
    const same = (n: LNode) => chain.slice(0, depth).every((p, k) => chainOf.get(n)?.[k] === p);
    const [lo, hi] = ends.get(c) as [Slot, Slot];
    const ranks = new Set(inside.map((n) => n.rank));
    for (const r of ranks) {
      const l = st.layers[r] as LNode[];
      const mine = (n: LNode) => (chainOf.get(n) as string[])[depth] === c;
      const first = l.findIndex(mine);
      const last = l.findLastIndex(mine);
      const before = l[first - 1];
      const after = l[last + 1];
      if (before && same(before)) {
        const s = sideOf(before, depth, 1);
        rules.push([s, lo, s.across + spaceBetween(st, before, inside[0] as LNode)]);
      }
      if (after && same(after))
        rules.push([hi, sideOf(after, depth, 0), spaceBetween(st, after, inside[0] as LNode)]);
    }
  }
  return settleRules(rules);
}

/** Each slot at least where its rules put it, in the order the rules allow; false on a cycle. */
function settleRules(rules: Rule[]): boolean {
  const outs = new Map<Slot, Rule[]>();
  const indeg = new Map<Slot, number>();
  for (const r of rules) {
    outs.set(r[0], [...(outs.get(r[0]) ?? []), r]);
    indeg.set(r[1], (indeg.get(r[1]) ?? 0) + 1);
    if (!indeg.has(r[0])) indeg.set(r[0], 0);
  }
  const queue = [...indeg].filter(([, d]) => d === 0).map(([s]) => s);
  let done = 0;
  while (queue.length > 0) {
    const s = queue.pop() as Slot;
    done++;
    for (const [, to, d] of outs.get(s) ?? []) {
      to.pos = Math.max(to.pos, s.pos + d);
      const left = (indeg.get(to) as number) - 1;
      indeg.set(to, left);
      if (left === 0) queue.push(to);
    }
  }
  return done === indeg.size;
}

/** Room along before each layer and after its nodes for the borders of compounds there. */
function alongRoom(
  st: RegionState,
  chainOf: Map<LNode, string[]>,
  pads: Map<string, Pad>,
): { before: number[]; after: number[] } {
  const span = new Map<string, [number, number]>();
  for (const [n, chain] of chainOf)
    for (const c of chain) {
      const s = span.get(c) ?? [n.rank, n.rank];
      span.set(c, [Math.min(s[0], n.rank), Math.max(s[1], n.rank)]);
    }
  const before = st.layers.map(() => 0);
  const after = st.layers.map(() => 0);
  st.layers.forEach((l, r) => {
    for (const n of l) {
      let b = 0;
      let a = 0;
      for (const c of chainOf.get(n) as string[]) {
        const [lo, hi] = span.get(c) as [number, number];
        if (lo === r) b += (pads.get(c) as Pad).alongStart;
        if (hi === r) a += (pads.get(c) as Pad).alongEnd;
      }
      before[r] = Math.max(before[r] as number, b);
      after[r] = Math.max(after[r] as number, a);
    }
  });
  return { before, after };
}

/**
 * Each compound's box round its members, its lines' points and labels, padded; false when one
 * covers a box or label it does not hold, or a sibling's box. Shifts all to start at (0, 0).
 */
function drawCompounds(
  out: Region,
  t: Tree,
  edges: RegionEdge[],
  labelChain: Map<string, string[]>,
): boolean {
  const inside = new Map<string, Box[]>();
  const add = (chain: string[], b: Box) => {
    for (const c of chain) inside.set(c, [...(inside.get(c) ?? []), b]);
  };
  for (const n of t.leaves) add(t.chain.get(n.id) as string[], out.nodes.get(n.id) as Box);
  const outsideLabels: [string[], Box][] = [];
  for (const e of edges) {
    const laid = out.edges.get(e.id);
    if (!laid) continue;
    const shared = common(t.chain.get(e.from) as string[], t.chain.get(e.to) as string[]);
    for (const p of laid.points) add(shared, { x: p.x, y: p.y, width: 0, height: 0 });
    if (laid.label) {
      // A label sits in the compounds its point in the layers is in (see lnodeChains).
      const held = labelChain.get(e.id) ?? shared;
      add(held, laid.label);
      outsideLabels.push([held, laid.label]);
    }
  }
  // Innermost first: a compound's box holds its nested compounds' boxes.
  const order = [...t.compounds.keys()].sort(
    (a, b) => (t.chain.get(b) as string[]).length - (t.chain.get(a) as string[]).length,
  );
  for (const id of order) {
    const n = t.compounds.get(id) as RegionNode;
    const p = n.padding ?? NO_PADDING;
    const list = inside.get(id) ?? [];
    const x0 = Math.min(...list.map((b) => b.x)) - p.left;
    const y0 = Math.min(...list.map((b) => b.y)) - p.top;
    const x1 = Math.max(...list.map((b) => b.x + b.width)) + p.right;
    const y1 = Math.max(...list.map((b) => b.y + b.height)) + p.bottom;
    const box = {
      x: x0,
      y: y0,
      width: Math.max(n.width, x1 - x0),
      height: Math.max(n.height, y1 - y0),
    };
    out.nodes.set(id, box);
    add(t.chain.get(id) as string[], box);
  }
  const holds = (c: string, id: string) => (t.chain.get(id) as string[]).includes(c) || c === id;
  for (const c of t.compounds.keys()) {
    const box = out.nodes.get(c) as Box;
    for (const [id, b] of out.nodes) {
      if (holds(c, id) || holds(id, c)) continue;
      if (boxesOverlap(box, b)) return false;
    }
    for (const [chain, label] of outsideLabels)
      if (!chain.includes(c) && boxesOverlap(box, label)) return false;
  }
  shiftToOrigin(out);
  return true;
}

function shiftToOrigin(out: Region): void {
  const boxes = [...out.nodes.values()];
  const pts = [...out.edges.values()].flatMap((e) => [
    ...e.points.map((p) => ({ x: p.x, y: p.y, width: 0, height: 0 })),
    ...(e.label ? [e.label] : []),
  ]);
  const all = [...boxes, ...pts];
  const x0 = Math.min(...all.map((b) => b.x));
  const y0 = Math.min(...all.map((b) => b.y));
  out.width = Math.max(...all.map((b) => b.x + b.width)) - x0;
  out.height = Math.max(...all.map((b) => b.y + b.height)) - y0;
  for (const [k, b] of out.nodes) out.nodes.set(k, { ...b, x: b.x - x0, y: b.y - y0 });
  for (const e of out.edges.values()) {
    e.points = e.points.map((p) => ({ x: p.x - x0, y: p.y - y0 }));
    if (e.label) e.label = { ...e.label, x: e.label.x - x0, y: e.label.y - y0 };
  }
}
