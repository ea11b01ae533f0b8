import { layerCrossings } from "./crossing-count.js";

/**
 * Crossing reduction over the layers, as Graphviz dot and ELK layered do it: from more than one
 * first order (the given one, and a depth-first one from the sources), sweeps down and up that
 * sort each layer by its neighbours' places (barycentre, then median), each sweep followed by
 * transposition of neighbours; the order with the fewest crossings wins.
 */

/** What ordering needs of a node: its layer and a first position. */
export interface Orderable {
  rank: number;
  order: number;
  pos: number;
  across: number;
  real: number;
}

/** Sweeps from each first order, per way of sorting. */
const SWEEPS = 8;

/**
 * The layered graph being ordered, its nodes numbered: layers, each node's index in its layer,
 * and its neighbours up and down with where on the neighbour each segment ends, as a fraction of
 * its width across (0.5 for a plain node; an edge into a compound node ends at the nested box).
 */
interface Ordering {
  layers: number[][];
  index: Float64Array;
  /** Scratch: each node's sort key in the current sweep. */
  key: Float64Array;
  rankOf: Int32Array;
  up: { m: number[]; off: number[] }[];
  down: { m: number[]; off: number[] }[];
  /** Segments between layer r and r + 1: [a, b, aOff, bOff] each. */
  segments: [number, number, number, number][][];
  /** The in-between nodes of each path of three layers or more (a long edge's points). */
  runs: number[][];
}

/**
 * Layers ordered to cross least. `offsets[k]`, when given, says where path k starts and ends
 * across its first and last node (fractions of the node's width across, 0.5 the middle).
 */
export function orderLayers<N extends Orderable>(
  nodes: N[],
  paths: N[][],
  offsets?: [number, number][],
): N[][] {
  const g = orderingOf(nodes, paths, offsets);
  const firsts = [g.layers.map((l) => [...l]), depthFirstOrder(g)];
  let best = firsts[0] as number[][];
  let bestCount = Number.POSITIVE_INFINITY;
  for (const first of firsts) {
    for (const key of [barycentre, median]) {
      if (bestCount === 0) break;
      setLayers(g, first);
      const found = sweepFrom(g, key);
      if (found.count < bestCount) {
        bestCount = found.count;
        best = found.layers;
      }
    }
  }
  if (bestCount > 0) {
    setLayers(g, best);
    const found = sweepFrom(g, barycentre, moveRuns(g, bestCount));
    if (found.count < bestCount) best = found.layers;
  }
  return best.map((l) =>
    l.map((id, i) => {
      const n = nodes[id] as N;
      n.order = i;
      return n;
    }),
  );
}

function orderingOf<N extends Orderable>(
  nodes: N[],
  paths: N[][],
  offsets: [number, number][] | undefined,
): Ordering {
  const count = Math.max(0, ...nodes.map((n) => n.rank)) + 1;
  const id = new Map(nodes.map((n, i) => [n, i]));
  const layers: number[][] = Array.from({ length: count }, () => []);
  nodes.forEach((n, i) => {
    layers[n.rank]?.push(i);
  });
  const first = (i: number) => (nodes[i] as N).order * 1000 + i / 1000;
  for (const l of layers) l.sort((a, b) => first(a) - first(b));
  const g: Ordering = {
    layers,
    index: new Float64Array(nodes.length),
    key: new Float64Array(nodes.length),
    rankOf: Int32Array.from(nodes, (n) => n.rank),
    up: nodes.map(() => ({ m: [], off: [] })),
    down: nodes.map(() => ({ m: [], off: [] })),
    segments: Array.from({ length: count }, () => []),
    runs: [],
  };
  paths.forEach((p, k) => {
    if (p.length > 2) g.runs.push(p.slice(1, -1).map((n) => id.get(n) as number));
    const [o0, o1] = offsets?.[k] ?? [0.5, 0.5];
    for (let i = 1; i < p.length; i++) {
      const a = id.get(p[i - 1] as N) as number;
      const b = id.get(p[i] as N) as number;
      const aOff = i === 1 ? o0 : 0.5;
      const bOff = i === p.length - 1 ? o1 : 0.5;
      g.segments[(nodes[a] as N).rank]?.push([a, b, aOff, bOff]);
      g.up[b]?.m.push(a);
      g.up[b]?.off.push(aOff);
      g.down[a]?.m.push(b);
      g.down[a]?.off.push(bOff);
    }
  });
  setLayers(g, layers);
  return g;
}

function setLayers(g: Ordering, layers: number[][]): void {
  g.layers = layers.map((l) => [...l]);
  for (const l of g.layers) {
    l.forEach((n, i) => {
      g.index[n] = i;
    });
  }
}

/** Nodes in the order a depth-first walk from the first layer's nodes meets them (dot's start). */
function depthFirstOrder(g: Ordering): number[][] {
  const out: number[][] = g.layers.map(() => []);
  const seen = new Uint8Array(g.index.length);
  const rankOf = new Int32Array(g.index.length);
  g.layers.forEach((l, r) => {
    for (const n of l) rankOf[n] = r;
  });
  const visit = (start: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const n = stack.pop() as number;
      if (seen[n]) continue;
      seen[n] = 1;
      out[rankOf[n] as number]?.push(n);
      const next = (g.down[n]?.m ?? []).filter((m) => !seen[m]);
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as number);
    }
  };
  for (const l of g.layers) for (const n of l) if (g.up[n]?.m.length === 0) visit(n);
  for (const l of g.layers) for (const n of l) visit(n);
  return out;
}

type Side = { m: number[]; off: number[] };

function barycentre(g: Ordering, s: Side): number {
  let sum = 0;
  for (let k = 0; k < s.m.length; k++)
    sum += (g.index[s.m[k] as number] as number) + (s.off[k] as number);
  return sum / s.m.length;
}

/** The median neighbour's place; of an even count, the two middle ones weighted as dot does. */
function median(g: Ordering, s: Side): number {
  const p = s.m.map((m, k) => (g.index[m] as number) + (s.off[k] as number)).sort((a, b) => a - b);
  const h = Math.floor(p.length / 2);
  if (p.length % 2 === 1) return p[h] as number;
  if (p.length === 2) return ((p[0] as number) + (p[1] as number)) / 2;
  const left = (p[h - 1] as number) - (p[0] as number);
  const right = (p[p.length - 1] as number) - (p[h] as number);
  if (left + right === 0) return ((p[h - 1] as number) + (p[h] as number)) / 2;
  return ((p[h - 1] as number) * right + (p[h] as number) * left) / (left + right);
}

/** Sweeps down and up from the current order; the best order met and its crossings. */
function sweepFrom(
  g: Ordering,
  key: (g: Ordering, s: Side) => number,
  known?: number,
): { layers: number[][]; count: number } {
  if (known === undefined) transpose(g);
  let layers = g.layers.map((l) => [...l]);
  let count = known ?? crossings(g);
  for (let s = 0; s < SWEEPS && count > 0; s++) {
    if (s % 2 === 0) for (let r = 1; r < g.layers.length; r++) sortLayer(g, r, g.up, key);
    else for (let r = g.layers.length - 2; r >= 0; r--) sortLayer(g, r, g.down, key);
    transpose(g);
    const c = crossings(g);
    if (c < count) {
      count = c;
      layers = g.layers.map((l) => [...l]);
    }
  }
  return { layers, count };
}

/**
 * A long edge's points all to one side: sweeps and transposition move one point at a time, and
 * a long edge on the wrong side of a chain (a retry running back past the states it skips) only
 * gets to the other side all at once. Each run is tried at the start and at the end of every
 * layer it passes, kept where it crosses least. Returns the crossings of the order it leaves.
 */
function moveRuns(g: Ordering, count: number): number {
  let best = count;
  for (const run of g.runs) {
    if (best === 0) break;
    const was = g.layers.map((l) => [...l]);
    for (const end of ["start", "end"] as const) {
      for (const n of run) {
        const l = g.layers[g.rankOf[n] as number] as number[];
        l.splice(l.indexOf(n), 1);
        if (end === "start") l.unshift(n);
        else l.push(n);
        l.forEach((m, i) => {
          g.index[m] = i;
        });
      }
      const c = crossings(g);
      if (c < best) {
        best = c;
        for (let r = 0; r < was.length; r++) was[r] = [...(g.layers[r] as number[])];
      }
    }
    setLayers(g, was);
  }
  return best;
}

/** Sorts layer `r` by its nodes' keys; a node with no neighbours that side keeps its place. */
function sortLayer(
  g: Ordering,
  r: number,
  nb: Side[],
  key: (g: Ordering, s: Side) => number,
): void {
  const l = g.layers[r] as number[];
  const keyed: number[] = [];
  for (const n of l) {
    const s = nb[n] as Side;
    if (s.m.length === 0) continue;
    g.key[n] = key(g, s);
    keyed.push(n);
  }
  keyed.sort((a, b) => (g.key[a] as number) - (g.key[b] as number));
  let k = 0;
  for (let i = 0; i < l.length; i++) {
    if ((nb[l[i] as number] as Side).m.length > 0) l[i] = keyed[k++] as number;
    g.index[l[i] as number] = i;
  }
}

/** Crossings between every two neighbouring layers, counting where segments end on a node. */
function crossings(g: Ordering): number {
  return layerCrossings(
    g.segments,
    (s) => (g.index[s[0]] as number) + s[2],
    (s) => (g.index[s[1]] as number) + s[3],
  );
}

/** Crossings among the segments of `u` and of `v` (on both sides) with u before v. */
function pairCost(g: Ordering, u: number, v: number): number {
  return (
    sideCost(g, g.up[u] as Side, g.up[v] as Side) +
    sideCost(g, g.down[u] as Side, g.down[v] as Side)
  );
}

function sideCost(g: Ordering, su: Side, sv: Side): number {
  let c = 0;
  for (let i = 0; i < su.m.length; i++) {
    const pu = (g.index[su.m[i] as number] as number) + (su.off[i] as number);
    for (let j = 0; j < sv.m.length; j++) {
      if (pu > (g.index[sv.m[j] as number] as number) + (sv.off[j] as number)) c++;
    }
  }
  return c;
}

/**
 * Transposition: swaps two neighbours of a layer while that removes crossings with the layers
 * on both sides (as Graphviz dot does after each sweep). The index is kept in step.
 */
function transpose(g: Ordering): void {
  for (let improved = true, round = 0; improved && round < 8; round++) {
    improved = false;
    for (const l of g.layers) {
      for (let i = 0; i + 1 < l.length; i++) {
        const u = l[i] as number;
        const v = l[i + 1] as number;
        if (pairCost(g, v, u) < pairCost(g, u, v)) {
          l[i] = v;
          l[i + 1] = u;
          g.index[v] = i;
          g.index[u] = i + 1;
          improved = true;
        }
      }
    }
  }
}
