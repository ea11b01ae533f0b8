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
 * A neighbour across one segment: the node and where on it the segment ends, as a fraction of
 * its width across (0.5 for a plain node; an edge into a compound node ends at the nested box).
 */
interface Near<N> {
  m: N;
  off: number;
}

/** The layered graph being ordered: layers, each node's index, its neighbours up and down. */
interface Ordering<N> {
  layers: N[][];
  index: Map<N, number>;
  up: Map<N, Near<N>[]>;
  down: Map<N, Near<N>[]>;
  /** Segments between layer r and r + 1, with their ends' fractions. */
  segments: { a: N; b: N; aOff: number; bOff: number }[][];
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
  let best = firsts[0] as N[][];
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
  setLayers(g, best);
  for (const l of g.layers) {
    l.forEach((n, i) => {
      n.order = i;
    });
  }
  return g.layers;
}

function orderingOf<N extends Orderable>(
  nodes: N[],
  paths: N[][],
  offsets: [number, number][] | undefined,
): Ordering<N> {
  const count = Math.max(0, ...nodes.map((n) => n.rank)) + 1;
  const layers: N[][] = Array.from({ length: count }, () => []);
  const first = new Map<N, number>();
  nodes.forEach((n, i) => {
    first.set(n, n.order * 1000 + i / 1000);
    layers[n.rank]?.push(n);
  });
  for (const l of layers) l.sort((a, b) => (first.get(a) as number) - (first.get(b) as number));
  const g: Ordering<N> = {
    layers,
    index: new Map(),
    up: new Map(),
    down: new Map(),
    segments: Array.from({ length: count }, () => []),
  };
  paths.forEach((p, k) => {
    const [o0, o1] = offsets?.[k] ?? [0.5, 0.5];
    for (let i = 1; i < p.length; i++) {
      const a = p[i - 1] as N;
      const b = p[i] as N;
      const aOff = i === 1 ? o0 : 0.5;
      const bOff = i === p.length - 1 ? o1 : 0.5;
      g.segments[a.rank]?.push({ a, b, aOff, bOff });
      g.up.set(b, [...(g.up.get(b) ?? []), { m: a, off: aOff }]);
      g.down.set(a, [...(g.down.get(a) ?? []), { m: b, off: bOff }]);
    }
  });
  setLayers(g, layers);
  return g;
}

function setLayers<N>(g: Ordering<N>, layers: N[][]): void {
  g.layers = layers.map((l) => [...l]);
  for (const l of g.layers) {
    l.forEach((n, i) => {
      g.index.set(n, i);
    });
  }
}

/** Nodes in the order a depth-first walk from the first layer's nodes meets them (dot's start). */
function depthFirstOrder<N extends Orderable>(g: Ordering<N>): N[][] {
  const out: N[][] = g.layers.map(() => []);
  const seen = new Set<N>();
  const visit = (start: N) => {
    const stack = [start];
    while (stack.length > 0) {
      const n = stack.pop() as N;
      if (seen.has(n)) continue;
      seen.add(n);
      out[n.rank]?.push(n);
      const next = (g.down.get(n) ?? []).map((x) => x.m).filter((m) => !seen.has(m));
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as N);
    }
  };
  for (const l of g.layers) for (const n of l) if (!g.up.has(n)) visit(n);
  for (const l of g.layers) for (const n of l) visit(n);
  return out;
}

const place = <N>(g: Ordering<N>, x: Near<N>): number => (g.index.get(x.m) as number) + x.off;

function barycentre<N>(g: Ordering<N>, list: Near<N>[]): number {
  return list.reduce((s, x) => s + place(g, x), 0) / list.length;
}

/** The median neighbour's place; of an even count, the two middle ones weighted as dot does. */
function median<N>(g: Ordering<N>, list: Near<N>[]): number {
  const p = list.map((x) => place(g, x)).sort((a, b) => a - b);
  const m = Math.floor(p.length / 2);
  if (p.length % 2 === 1) return p[m] as number;
  if (p.length === 2) return ((p[0] as number) + (p[1] as number)) / 2;
  const left = (p[m - 1] as number) - (p[0] as number);
  const right = (p[p.length - 1] as number) - (p[m] as number);
  if (left + right === 0) return ((p[m - 1] as number) + (p[m] as number)) / 2;
  return ((p[m - 1] as number) * right + (p[m] as number) * left) / (left + right);
}

/** Sweeps down and up from the current order; the best order met and its crossings. */
function sweepFrom<N>(
  g: Ordering<N>,
  key: (g: Ordering<N>, list: Near<N>[]) => number,
): { layers: N[][]; count: number } {
  transpose(g);
  let layers = g.layers.map((l) => [...l]);
  let count = crossings(g);
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

/** Sorts layer `r` by its nodes' keys; a node with no neighbours that side keeps its place. */
function sortLayer<N>(
  g: Ordering<N>,
  r: number,
  nb: Map<N, Near<N>[]>,
  key: (g: Ordering<N>, list: Near<N>[]) => number,
): void {
  const l = g.layers[r] as N[];
  const keyed = l.filter((n) => (nb.get(n) ?? []).length > 0);
  const keys = new Map(keyed.map((n) => [n, key(g, nb.get(n) as Near<N>[])]));
  const sorted = [...keyed].sort((a, b) => (keys.get(a) as number) - (keys.get(b) as number));
  let k = 0;
  const next = l.map((n) => (keys.has(n) ? (sorted[k++] as N) : n));
  g.layers[r] = next;
  next.forEach((n, i) => {
    g.index.set(n, i);
  });
}

/** Crossings between every two neighbouring layers, counting where segments end on a node. */
function crossings<N>(g: Ordering<N>): number {
  let total = 0;
  for (const list of g.segments) {
    const segs = list.map(
      (s) =>
        [(g.index.get(s.a) as number) + s.aOff, (g.index.get(s.b) as number) + s.bOff] as const,
    );
    for (let i = 0; i < segs.length; i++) {
      const [a1, b1] = segs[i] as readonly [number, number];
      for (let j = i + 1; j < segs.length; j++) {
        const [a2, b2] = segs[j] as readonly [number, number];
        if ((a1 - a2) * (b1 - b2) < 0) total++;
      }
    }
  }
  return total;
}

/**
 * Transposition: swaps two neighbours of a layer while that removes crossings with the layers
 * on both sides (as Graphviz dot does after each sweep). The index is kept in step.
 */
function transpose<N>(g: Ordering<N>): void {
  const pairCost = (u: N, v: N): number => {
    let c = 0;
    for (const nb of [g.up, g.down]) {
      for (const a of nb.get(u) ?? []) {
        for (const b of nb.get(v) ?? []) if (place(g, a) > place(g, b)) c++;
      }
    }
    return c;
  };
  for (let improved = true, round = 0; improved && round < 8; round++) {
    improved = false;
    for (const l of g.layers) {
      for (let i = 0; i + 1 < l.length; i++) {
        const u = l[i] as N;
        const v = l[i + 1] as N;
        if (pairCost(v, u) < pairCost(u, v)) {
          l[i] = v;
          l[i + 1] = u;
          g.index.set(v, i);
          g.index.set(u, i + 1);
          improved = true;
        }
      }
    }
  }
}
