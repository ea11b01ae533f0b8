import { backwardLinks, type WeightedLink } from "./feedback.js";

/** Two layers per edge: the layer between a link's ends holds its label. */
const SPAN = 2;

/**
 * What turning a line that closes no cycle of the description costs, against 1 for a line on
 * a cycle: more than all the cycle lines of any region, so those are turned first.
 */
const NO_CYCLE_WEIGHT = 10_000;

/**
 * The order a depth-first walk meets the nodes in, from the first-ranked nodes, then the rest in
 * the order given: where several orders turn equally few lines, the walk's is kept.
 */
function walkOrder(constraint: ("first" | "last" | undefined)[], links: WeightedLink[]): number[] {
  const n = constraint.length;
  const outs: number[][] = Array.from({ length: n }, () => []);
  for (const l of links) outs[l.from]?.push(l.to);
  const met = new Array<number>(n).fill(-1);
  let next = 0;
  const visit = (start: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop() as number;
      if (met[v] !== -1) continue;
      met[v] = next++;
      const list = outs[v] as number[];
      for (let i = list.length - 1; i >= 0; i--) {
        if (met[list[i] as number] === -1) stack.push(list[i] as number);
      }
    }
  };
  for (let v = 0; v < n; v++) if (constraint[v] === "first" && met[v] === -1) visit(v);
  for (let v = 0; v < n; v++) if (met[v] === -1) visit(v);
  return met;
}

/**
 * Layers for the nodes of one region: edges into a first-ranked node or out of a last-ranked
 * one are turned round, then within each strongly connected component as few edges as its
 * cycles force (graph-layout/feedback.ts), edges that close no cycle of the description last of
 * all; edges between components always run forward. Longest-path layering; last-ranked nodes go
 * to the last layer, other sources move up to just before what they point at. Pairs of nodes
 * joined both ways by lines that close no cycle of the description are then laid the way most
 * of their lines go.
 */
export function rankNodes(
  constraint: ("first" | "last" | undefined)[],
  links: [number, number][],
  cyclic: boolean[] = links.map(() => true),
  groups?: string[][],
): { rank: number[]; reversed: boolean[] } {
  const n = constraint.length;
  const reversed = links.map(
    ([a, b]) => constraint[b] === "first" || (constraint[a] === "last" && constraint[b] !== "last"),
  );
  const dir = (k: number): [number, number] => {
    const [a, b] = links[k] as [number, number];
    return reversed[k] ? [b, a] : [a, b];
  };
  const weighted = links.map((_, k) => {
    const [from, to] = dir(k);
    return { from, to, weight: cyclic[k] ? 1 : NO_CYCLE_WEIGHT };
  });
  const turn = backwardLinks(n, weighted, walkOrder(constraint, weighted));
  turn.forEach((t, k) => {
    if (t) reversed[k] = !reversed[k];
  });
  turnToMajority(n, links, reversed, constraint, cyclic);

  const preds: number[][] = Array.from({ length: n }, () => []);
  const succs: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Array<number>(n).fill(0);
  links.forEach((_, k) => {
    const [a, b] = dir(k);
    if (a === b) return;
    preds[b]?.push(a);
    succs[a]?.push(b);
    indeg[b] = (indeg[b] as number) + 1;
  });
  const rank = new Array<number>(n).fill(0);
  const order: number[] = [];
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) queue.push(v);
  while (queue.length > 0) {
    const v = queue.shift() as number;
    order.push(v);
    for (const w of succs[v] as number[]) {
      rank[w] = Math.max(rank[w] as number, (rank[v] as number) + SPAN);
      indeg[w] = (indeg[w] as number) - 1;
      if (indeg[w] === 0) queue.push(w);
    }
  }
  const max = Math.max(0, ...rank);
  for (let v = 0; v < n; v++) if (constraint[v] === "last") rank[v] = max;
  for (let i = order.length - 1; i >= 0; i--) {
    const v = order[i] as number;
    const s = succs[v] as number[];
    if ((preds[v] as number[]).length === 0 && s.length > 0 && constraint[v] !== "first") {
      rank[v] = Math.min(...s.map((w) => rank[w] as number)) - SPAN;
    }
  }
  if (groups) compact(rank, preds, succs, groups, constraint);
  const min = Math.min(0, ...rank);
  return { rank: rank.map((r) => r - min), reversed };
}

/** Passes of `compact` over the nodes. */
const COMPACT_PASSES = 4;

/**
 * Moves each node, within the layers its lines allow (every line still forward), to the layer
 * where its lines are shortest and the groups holding it (a boundary drawn round its members)
 * span fewest layers, as network simplex does for dot: longest-path layering puts a node as
 * early as it can, so a group's member fed early but feeding late stretches its group's box
 * over layers that everything else there must then clear.
 */
function compact(
  rank: number[],
  preds: number[][],
  succs: number[][],
  groups: string[][],
  constraint: ("first" | "last" | undefined)[],
): void {
  const members = new Map<string, number[]>();
  groups.forEach((g, v) => {
    for (const c of g) {
      const list = members.get(c);
      if (list) list.push(v);
      else members.set(c, [v]);
    }
  });
  const top = Math.max(0, ...rank);
  const spanCost = (v: number, r: number) => {
    let cost = 0;
    for (const c of groups[v] as string[]) {
      let lo = r;
      let hi = r;
      for (const m of members.get(c) as number[]) {
        if (m === v) continue;
        lo = Math.min(lo, rank[m] as number);
        hi = Math.max(hi, rank[m] as number);
      }
      cost += hi - lo;
    }
    return cost;
  };
  const lengthCost = (v: number, r: number) => {
    let cost = 0;
    for (const p of preds[v] as number[]) cost += r - (rank[p] as number);
    for (const s of succs[v] as number[]) cost += (rank[s] as number) - r;
    return cost;
  };
  for (let pass = 0; pass < COMPACT_PASSES; pass++) {
    let moved = false;
    for (let v = 0; v < rank.length; v++) {
      if (constraint[v] !== undefined) continue;
      const p = preds[v] as number[];
      const s = succs[v] as number[];
      const lo = p.length > 0 ? Math.max(...p.map((w) => (rank[w] as number) + SPAN)) : 0;
      const hi = s.length > 0 ? Math.min(...s.map((w) => (rank[w] as number) - SPAN)) : top;
      const now = rank[v] as number;
      let best = now;
      let bestCost = lengthCost(v, now) + spanCost(v, now);
      for (let r = lo; r <= hi; r += SPAN) {
        const c = lengthCost(v, r) + spanCost(v, r);
        if (c < bestCost) {
          best = r;
          bestCost = c;
        }
      }
      if (best !== now) {
        rank[v] = best;
        moved = true;
      }
    }
    if (!moved) break;
  }
}

/**
 * Two nodes joined both ways where the description has no cycle (a boundary, and a box beside it
 * with lines to and from different members): the depth-first walk turned round whichever line
 * it met last, though most may run the other way. Such a pair is laid the way most of its lines
 * go, when that keeps the layers free of cycles. A pair with a line on a real cycle is left as
 * the walk laid it (turning it would run that cycle's other lines backwards).
 */
function turnToMajority(
  n: number,
  links: [number, number][],
  reversed: boolean[],
  constraint: ("first" | "last" | undefined)[],
  cyclic: boolean[],
): void {
  const pairs = new Map<number, number[]>();
  links.forEach(([a, b], k) => {
    if (a === b || constraint[a] !== undefined || constraint[b] !== undefined) return;
    const key = Math.min(a, b) * n + Math.max(a, b);
    pairs.set(key, [...(pairs.get(key) ?? []), k]);
  });
  for (const group of pairs.values()) {
    if (group.some((k) => cyclic[k])) continue;
    // Without a cycle between them, the group is laid one way; the other way turns the rest.
    const now = group.filter((k) => reversed[k]).length;
    if (2 * now <= group.length) continue;
    for (const k of group) reversed[k] = !reversed[k];
    if (hasCycle(n, links, reversed)) for (const k of group) reversed[k] = !reversed[k];
  }
}

/** Whether the links, each laid as `reversed` says, hold a cycle (Kahn's algorithm). */
function hasCycle(n: number, links: [number, number][], reversed: boolean[]): boolean {
  const outs: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Array<number>(n).fill(0);
  links.forEach(([a, b], k) => {
    if (a === b) return;
    const [x, y] = reversed[k] ? [b, a] : [a, b];
    outs[x]?.push(y);
    indeg[y] = (indeg[y] as number) + 1;
  });
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) queue.push(v);
  let seen = 0;
  while (queue.length > 0) {
    const v = queue.pop() as number;
    seen++;
    for (const w of outs[v] as number[]) {
      indeg[w] = (indeg[w] as number) - 1;
      if (indeg[w] === 0) queue.push(w);
    }
  }
  return seen < n;
}
