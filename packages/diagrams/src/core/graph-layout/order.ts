/** What ordering needs of a node: its layer and a first position. */
export interface Orderable {
  rank: number;
  order: number;
  pos: number;
  across: number;
  real: number;
}

const SWEEPS = 12;

/**
 * Layers ordered by barycenter sweeps, each followed by transposition of neighbours, keeping the
 * order with the fewest crossings.
 */
export function orderLayers<N extends Orderable>(nodes: N[], paths: N[][]): N[][] {
  const count = Math.max(0, ...nodes.map((n) => n.rank)) + 1;
  let layers: N[][] = Array.from({ length: count }, () => []);
  nodes.forEach((n, i) => {
    n.order = n.order * 1000 + i / 1000;
    layers[n.rank]?.push(n);
  });
  for (const l of layers) l.sort((a, b) => a.order - b.order);
  const up = new Map<N, N[]>();
  const down = new Map<N, N[]>();
  for (const p of paths) {
    for (let i = 1; i < p.length; i++) {
      const a = p[i - 1] as N;
      const b = p[i] as N;
      up.set(b, [...(up.get(b) ?? []), a]);
      down.set(a, [...(down.get(a) ?? []), b]);
    }
  }
  const index = new Map<N, number>();
  const reindex = (ls: N[][]) => {
    for (const l of ls) {
      l.forEach((n, i) => {
        index.set(n, i);
      });
    }
  };
  reindex(layers);
  const crossings = (): number => {
    let total = 0;
    for (let r = 0; r + 1 < count; r++) {
      const segs: [number, number][] = [];
      for (const a of layers[r] as N[]) {
        for (const b of down.get(a) ?? [])
          segs.push([index.get(a) as number, index.get(b) as number]);
      }
      for (let i = 0; i < segs.length; i++) {
        const [a1, b1] = segs[i] as [number, number];
        for (let j = i + 1; j < segs.length; j++) {
          const [a2, b2] = segs[j] as [number, number];
          if ((a1 - a2) * (b1 - b2) < 0) total++;
        }
      }
    }
    return total;
  };
  let best = layers.map((l) => [...l]);
  let bestCount = crossings();
  const sweep = (r: number, nb: Map<N, N[]>) => {
    const l = layers[r] as N[];
    const key = new Map<N, number>();
    l.forEach((n, i) => {
      const list = nb.get(n) ?? [];
      key.set(
        n,
        list.length ? list.reduce((s, m) => s + (index.get(m) as number), 0) / list.length : i,
      );
    });
    l.sort((a, b) => (key.get(a) as number) - (key.get(b) as number));
    l.forEach((n, i) => {
      index.set(n, i);
    });
  };
  for (let s = 0; s < SWEEPS && bestCount > 0; s++) {
    if (s % 2 === 0) for (let r = 1; r < count; r++) sweep(r, up);
    else for (let r = count - 2; r >= 0; r--) sweep(r, down);
    transpose(layers, index, [up, down]);
    const c = crossings();
    if (c < bestCount) {
      bestCount = c;
      best = layers.map((l) => [...l]);
    }
  }
  layers = best;
  reindex(layers);
  for (const l of layers) {
    l.forEach((n, i) => {
      n.order = i;
    });
  }
  return layers;
}

/**
 * Transposition: swaps two neighbours of a layer while that removes crossings with the layers
 * on both sides (as Graphviz dot does after each sweep). `index` is kept in step.
 */
function transpose<N>(layers: N[][], index: Map<N, number>, sides: Map<N, N[]>[]): void {
  const pairCost = (u: N, v: N): number => {
    let c = 0;
    for (const nb of sides) {
      for (const a of nb.get(u) ?? []) {
        for (const b of nb.get(v) ?? [])
          if ((index.get(a) as number) > (index.get(b) as number)) c++;
      }
    }
    return c;
  };
  for (let improved = true, round = 0; improved && round < 8; round++) {
    improved = false;
    for (const l of layers) {
      for (let i = 0; i + 1 < l.length; i++) {
        const u = l[i] as N;
        const v = l[i + 1] as N;
        if (pairCost(v, u) < pairCost(u, v)) {
          l[i] = v;
          l[i + 1] = u;
          index.set(v, i);
          index.set(u, i + 1);
          improved = true;
        }
      }
    }
  }
}
