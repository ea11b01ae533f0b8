/**
 * Which edges close a cycle of the graph as described (both ends in one strongly connected
 * component). A region's layers see a compound node as one node, so they find cycles the
 * description does not have (a boundary with lines to and from a box beside it); cycle breaking
 * turns such a pair the way that leaves fewer lines running backwards without a cycle to excuse
 * them (graph-layout/rank.ts).
 */

interface CycleNode {
  id: string;
  children?: CycleNode[];
}

/**
 * The ids of edges whose ends lie in one strongly connected component. A line into a compound
 * node leads into every node it holds, and a line out of one leaves from every node it holds;
 * such a line closes a cycle when it does for one of those nodes.
 */
export function edgesOnCycles(
  nodes: CycleNode[],
  edges: { id: string; from: string; to: string }[],
): Set<string> {
  const within = new Map<string, string[]>();
  const collect = (n: CycleNode): string[] => {
    const all = [n.id, ...(n.children ?? []).flatMap(collect)];
    within.set(n.id, all);
    return all;
  };
  for (const n of nodes) collect(n);
  const out = new Map<string, string[]>();
  for (const id of within.keys()) out.set(id, []);
  for (const e of edges) {
    for (const a of within.get(e.from) ?? []) {
      const list = out.get(a) as string[];
      for (const b of within.get(e.to) ?? []) list.push(b);
    }
  }
  const comp = components(out);
  // A line of a compound node closes a cycle when any member it stands for does.
  const closes = (e: { from: string; to: string }) => {
    const heads = new Set((within.get(e.to) ?? []).map((b) => comp.get(b)));
    return (within.get(e.from) ?? []).some((a) => heads.has(comp.get(a)));
  };
  return new Set(edges.filter(closes).map((e) => e.id));
}

/** Tarjan's strongly connected components, iteratively: each node's component number. */
function components(out: Map<string, string[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const comp = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let next = 0;
  let count = 0;
  const open = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
  };
  for (const root of out.keys()) {
    if (index.has(root)) continue;
    open(root);
    const work: [string, number][] = [[root, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1] as [string, number];
      const [v, i] = top;
      const succ = out.get(v) as string[];
      if (i < succ.length) {
        top[1] = i + 1;
        const w = succ[i] as string;
        if (!index.has(w)) {
          open(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
        }
        continue;
      }
      work.pop();
      const up = work[work.length - 1];
      if (up) low.set(up[0], Math.min(low.get(up[0]) as number, low.get(v) as number));
      if (low.get(v) !== index.get(v)) continue;
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        comp.set(w, count);
        if (w === v) break;
      }
      count++;
    }
  }
  return comp;
}
