/** A directed edge between two node ids. */
interface Arc {
  id: string;
  from: string;
  to: string;
}

/**
 * The size of a feedback arc set of `arcs` found by Eades, Lin and Smyth's greedy order (sinks
 * to the back, sources to the front, else the node with most out- over in-arcs): the arcs that
 * run backwards in that order. Removing them leaves no cycle, so no drawing needs more backward
 * lines than this; self-loops are not counted.
 */
export function greedyFeedbackArcs(arcs: readonly Arc[]): number {
  const live = arcs.filter((a) => a.from !== a.to);
  const nodes = new Set(live.flatMap((a) => [a.from, a.to]));
  const front: string[] = [];
  const back: string[] = [];
  const degree = (n: string, side: "from" | "to") =>
    live.filter((a) => a[side] === n && nodes.has(a.from) && nodes.has(a.to)).length;
  while (nodes.size > 0) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const n of [...nodes]) {
        if (degree(n, "from") === 0) {
          back.unshift(n);
          nodes.delete(n);
          changed = true;
        } else if (degree(n, "to") === 0) {
          front.push(n);
          nodes.delete(n);
          changed = true;
        }
      }
    }
    if (nodes.size === 0) break;
    let best = "";
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const n of [...nodes].sort()) {
      const score = degree(n, "from") - degree(n, "to");
      if (score > bestScore) {
        best = n;
        bestScore = score;
      }
    }
    front.push(best);
    nodes.delete(best);
  }
  const position = new Map([...front, ...back].map((n, i) => [n, i]));
  return live.filter((a) => (position.get(a.from) ?? 0) > (position.get(a.to) ?? 0)).length;
}

/** Arcs grouped by the connected pieces their ends form. */
export function arcGroups(arcs: readonly Arc[]): Arc[][] {
  const parent = new Map<string, string>();
  const find = (n: string): string => {
    const p = parent.get(n) ?? n;
    if (p === n) return n;
    const root = find(p);
    parent.set(n, root);
    return root;
  };
  for (const a of arcs) parent.set(find(a.from), find(a.to));
  const groups = new Map<string, Arc[]>();
  for (const a of arcs) {
    const key = find(a.from);
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  return [...groups.values()];
}

/** Groups up to this many ends are counted exactly (2^n subsets). */
const MAX_EXACT_ENDS = 16;

/**
 * The least number of arcs whose removal leaves no cycle (self-loops aside): exact, by dynamic
 * programming over the subsets of ends (the cheapest order of each subset placed first), for up
 * to 16 ends; beyond that the greedy count, which no drawing needs to exceed.
 */
export function leastFeedbackArcs(arcs: readonly Arc[]): number {
  const live = arcs.filter((a) => a.from !== a.to);
  const ends = [...new Set(live.flatMap((a) => [a.from, a.to]))];
  if (ends.length > MAX_EXACT_ENDS) return greedyFeedbackArcs(arcs);
  const at = new Map(ends.map((id, i) => [id, i]));
  // Arcs from each end, as (target index) per arc, so parallel arcs count twice.
  const out = ends.map(() => [] as number[]);
  for (const a of live) out[at.get(a.from) as number]?.push(at.get(a.to) as number);
  const full = (1 << ends.length) - 1;
  const best = new Array<number>(full + 1).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  for (let set = 0; set < full; set++) {
    const so = best[set] as number;
    if (so === Number.POSITIVE_INFINITY) continue;
    for (let v = 0; v < ends.length; v++) {
      if (set & (1 << v)) continue;
      // v placed after every end in `set`: its arcs into the set run backwards.
      const back = (out[v] as number[]).filter((u) => set & (1 << u)).length;
      const next = set | (1 << v);
      if (so + back < (best[next] as number)) best[next] = so + back;
    }
  }
  return best[full] as number;
}
