/** Two layers per edge: the layer between a link's ends holds its label. */
const SPAN = 2;

/**
 * Layers for the nodes of one region: edges into a first-ranked node or out of a last-ranked
 * one are turned round, then a depth-first walk from the first-ranked nodes (then the rest, in
 * order) turns round the edges that close a cycle, so back edges are the ones met last.
 * Longest-path layering; last-ranked nodes go to the last layer, other sources move up to just
 * before what they point at.
 */
export function rankNodes(
  constraint: ("first" | "last" | undefined)[],
  links: [number, number][],
): { rank: number[]; reversed: boolean[] } {
  const n = constraint.length;
  const reversed = links.map(
    ([a, b]) => constraint[b] === "first" || (constraint[a] === "last" && constraint[b] !== "last"),
  );
  const dir = (k: number): [number, number] => {
    const [a, b] = links[k] as [number, number];
    return reversed[k] ? [b, a] : [a, b];
  };
  const outs: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < links.length; k++) outs[dir(k)[0]]?.push(k);
  const state = new Array<number>(n).fill(0); // 0 new, 1 on the stack, 2 done
  const visit = (start: number) => {
    const stack: [number, number][] = [[start, 0]];
    state[start] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as [number, number];
      const [v, i] = top;
      const list = outs[v] as number[];
      if (i >= list.length) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = i + 1;
      const k = list[i] as number;
      const w = dir(k)[1];
      if (state[w] === 1) reversed[k] = !reversed[k];
      else if (state[w] === 0) {
        state[w] = 1;
        stack.push([w, 0]);
      }
    }
  };
  for (let v = 0; v < n; v++) if (constraint[v] === "first" && state[v] === 0) visit(v);
  for (let v = 0; v < n; v++) if (state[v] === 0) visit(v);

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
  const min = Math.min(0, ...rank);
  return { rank: rank.map((r) => r - min), reversed };
}
