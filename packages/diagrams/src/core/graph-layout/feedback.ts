/**
 * Cycle breaking for the layering: which links of a region are laid out from head to tail so
 * that the rest run forward. The fewer turned, the more of the drawing reads in its direction,
 * so each strongly connected component is put in an order with as few backward links as its
 * cycles force (a minimum feedback arc set): exactly for small components (dynamic programming
 * over subsets, Held-Karp style), by Eades-Lin-Smyth's greedy order improved by moving one node
 * at a time for large ones. Links between components never turn. A link that closes no cycle of
 * the description (a region sees a compound node as one node) weighs far more than one that
 * does, so a cycle is broken on its own lines whenever it can be. Reference: docs/decisions.md.
 */

/** A directed link of the region, as node indices, and what turning it round costs. */
export interface WeightedLink {
  from: number;
  to: number;
  weight: number;
}

/** Components up to this many nodes are ordered exactly (2^n subsets, each n²). */
const MAX_EXACT = 14;
/** Passes of moving single nodes in a large component's order. */
const SIFT_PASSES = 6;

/**
 * For each link, whether it runs backwards in the chosen order of the nodes. `prefer` ranks
 * the nodes (lower first) where several orders turn equally few: the order a depth-first walk
 * from the first-ranked nodes meets them in keeps what the writer listed first early.
 */
export function backwardLinks(n: number, links: WeightedLink[], prefer: number[]): boolean[] {
  const position = new Array<number>(n).fill(0);
  for (const members of stronglyConnected(n, links)) {
    if (members.length < 2) continue;
    members.sort((a, b) => (prefer[a] as number) - (prefer[b] as number));
    const inside = links.filter(
      (l) => l.from !== l.to && members.includes(l.from) && members.includes(l.to),
    );
    const order =
      members.length <= MAX_EXACT ? exactOrder(members, inside) : siftedOrder(members, inside);
    order.forEach((v, i) => {
      position[v] = i;
    });
  }
  const comp = componentOf(n, links);
  return links.map(
    (l) =>
      l.from !== l.to &&
      comp[l.from] === comp[l.to] &&
      (position[l.from] as number) > (position[l.to] as number),
  );
}

/** Each node's strongly connected component number. */
function componentOf(n: number, links: WeightedLink[]): number[] {
  const comp = new Array<number>(n).fill(-1);
  stronglyConnected(n, links).forEach((members, c) => {
    for (const v of members) comp[v] = c;
  });
  return comp;
}

/** Tarjan's strongly connected components, iteratively; each a list of node indices. */
function stronglyConnected(n: number, links: WeightedLink[]): number[][] {
  const outs: number[][] = Array.from({ length: n }, () => []);
  for (const l of links) outs[l.from]?.push(l.to);
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const found: number[][] = [];
  let next = 0;
  const open = (v: number) => {
    index[v] = next;
    low[v] = next++;
    stack.push(v);
    onStack[v] = true;
  };
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    open(root);
    const work: [number, number][] = [[root, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1] as [number, number];
      const [v, i] = top;
      const succ = outs[v] as number[];
      if (i < succ.length) {
        top[1] = i + 1;
        const w = succ[i] as number;
        if (index[w] === -1) {
          open(w);
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      work.pop();
      const up = work[work.length - 1];
      if (up) low[up[0]] = Math.min(low[up[0]] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const members: number[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack[w] = false;
        members.push(w);
        if (w === v) break;
      }
      found.push(members);
    }
  }
  return found;
}

/**
 * The order of `members` (given in preferred order) with the least backward weight: `rest[S]`
 * is the least weight of ordering everything outside the set S after it; the order is then
 * read from the empty set forward, taking at each step the most preferred node that keeps to
 * the least weight.
 */
function exactOrder(members: number[], inside: WeightedLink[]): number[] {
  const k = members.length;
  const local = new Map(members.map((v, i) => [v, i]));
  const weight: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const l of inside) {
    const row = weight[local.get(l.from) as number] as number[];
    const to = local.get(l.to) as number;
    row[to] = (row[to] as number) + l.weight;
  }
  // Placing v after the set S turns v's links into S.
  const cost = (v: number, set: number) => {
    let sum = 0;
    const row = weight[v] as number[];
    for (let u = 0; u < k; u++) if (set & (1 << u)) sum += row[u] as number;
    return sum;
  };
  const full = (1 << k) - 1;
  const rest = new Float64Array(full + 1);
  for (let set = full - 1; set >= 0; set--) {
    let best = Number.POSITIVE_INFINITY;
    for (let v = 0; v < k; v++) {
      if (set & (1 << v)) continue;
      best = Math.min(best, cost(v, set) + (rest[set | (1 << v)] as number));
    }
    rest[set] = best;
  }
  const order: number[] = [];
  for (let set = 0; set !== full; ) {
    for (let v = 0; v < k; v++) {
      if (set & (1 << v)) continue;
      const next = set | (1 << v);
      if (cost(v, set) + (rest[next] as number) === rest[set]) {
        order.push(members[v] as number);
        set = next;
        break;
      }
    }
  }
  return order;
}

/** The backward weight of `order`. */
function backwardWeight(order: number[], inside: WeightedLink[]): number {
  const at = new Map(order.map((v, i) => [v, i]));
  let sum = 0;
  for (const l of inside)
    if ((at.get(l.from) as number) > (at.get(l.to) as number)) sum += l.weight;
  return sum;
}

/**
 * A large component's order: Eades, Lin and Smyth's greedy one (sinks to the back, sources to
 * the front, else the node whose outgoing weight most exceeds its incoming), then each node
 * moved to the place in the order where it turns least, while that helps.
 */
function siftedOrder(members: number[], inside: WeightedLink[]): number[] {
  const order = greedyOrder(members, inside);
  for (let pass = 0; pass < SIFT_PASSES; pass++) {
    let improved = false;
    for (const v of [...order]) {
      const without = order.filter((w) => w !== v);
      let best = order;
      let bestWeight = backwardWeight(order, inside);
      for (let i = 0; i <= without.length; i++) {
        const tried = [...without.slice(0, i), v, ...without.slice(i)];
        const w = backwardWeight(tried, inside);
        if (w < bestWeight) {
          best = tried;
          bestWeight = w;
        }
      }
      if (best !== order) {
        order.splice(0, order.length, ...best);
        improved = true;
      }
    }
    if (!improved) break;
  }
  return order;
}

/** Eades-Lin-Smyth's greedy order of `members` (in preferred order, which breaks ties). */
function greedyOrder(members: number[], inside: WeightedLink[]): number[] {
  const live = new Set(members);
  const front: number[] = [];
  const back: number[] = [];
  const degree = (v: number, side: "from" | "to") => {
    let sum = 0;
    for (const l of inside) {
      if (l[side] === v && live.has(l.from) && live.has(l.to)) sum += l.weight;
    }
    return sum;
  };
  while (live.size > 0) {
    const sink = members.find((v) => live.has(v) && degree(v, "from") === 0);
    const source = members.find((v) => live.has(v) && degree(v, "to") === 0);
    let pick: number;
    if (sink !== undefined) {
      back.unshift(sink);
      live.delete(sink);
      continue;
    }
    if (source !== undefined) pick = source;
    else {
      pick = members.find((v) => live.has(v)) as number;
      let score = Number.NEGATIVE_INFINITY;
      for (const v of members) {
        if (!live.has(v)) continue;
        const s = degree(v, "from") - degree(v, "to");
        if (s > score) {
          pick = v;
          score = s;
        }
      }
    }
    front.push(pick);
    live.delete(pick);
  }
  return [...front, ...back];
}
