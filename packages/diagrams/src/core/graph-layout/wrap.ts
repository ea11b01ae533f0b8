/**
 * Wrapping ranks: a graph much longer along its flow than across (a long chain of states) is
 * cut into bands of consecutive layers, laid side by side across like newspaper columns, so the
 * drawing fits a page. Each band is an invisible compound node of the top level (one layer, so
 * the bands stand side by side in order); an edge from one band to another is left out of the
 * layered layout and routed around everything afterwards.
 */
import type { Box } from "../geometry.js";
import type { Frame } from "./frame.js";

/** Whether a node is a band of a wrapped layout (invisible: its outline is drawn nowhere). */
export const isBand = (id: string): boolean => id.startsWith("wrap:");

/** Beyond this length-to-width ratio of the laid-out graph, its layers wrap. */
export const WRAP_RATIO = 2.2;
/** The ratio the bands aim at (a little taller than wide in a top-down drawing). */
const TARGET = 1.2;
/** Room kept on each side inside a band, for the lines that go from one band to the next. */
const BAND_PAD = 20;

interface WrapNode {
  id: string;
  width: number;
  height: number;
  children?: WrapNode[];
  padding?: { top: number; right: number; bottom: number; left: number };
  order?: number;
}

export interface WrapPlan<N extends WrapNode> {
  /** The whole graph's top-level nodes, with the wrapped ones' place taken by their bands. */
  nodes: N[];
  /** The invisible band nodes (not drawn, not returned). */
  bands: string[];
  /** Wrapped node (the top level's, or one compound node's children) → its band. */
  bandOf: Map<string, string>;
}

/**
 * The nodes whose layers wrap: those of the level (the top, or one compound node's children)
 * that runs longest along the flow, so a long chain inside a boundary wraps inside it.
 */
function longestLevel<N extends WrapNode>(
  nodes: N[],
  laid: { nodes: Map<string, Box> },
  f: Frame,
): { owner: N | undefined; members: N[] } {
  let best: { owner: N | undefined; members: N[] } = { owner: undefined, members: nodes };
  let bestSpan = Number.NEGATIVE_INFINITY;
  const visit = (owner: N | undefined, members: N[]) => {
    if (members.length >= 2) {
      const spans = members.map((n) => f.fromReal(laid.nodes.get(n.id) as Box));
      const lo = Math.min(...spans.map((a) => a.along0));
      const hi = Math.max(...spans.map((a) => a.along0 + a.along));
      // The top level wins a tie: wrapping it moves no boundary's contents.
      if (hi - lo > bestSpan + 1) {
        bestSpan = hi - lo;
        best = { owner, members };
      }
    }
    for (const n of members) if (n.children?.length) visit(n, n.children as N[]);
  };
  visit(undefined, nodes);
  return best;
}

/** Bands (`more` beyond the first guess) for an unwrapped layout; undefined when it fits. */
export function wrapPlan<N extends WrapNode>(
  nodes: N[],
  laid: { width: number; height: number; nodes: Map<string, Box> },
  f: Frame,
  more = 0,
): WrapPlan<N> | undefined {
  const size = f.size(laid);
  const ratio = size.along / Math.max(1, size.across);
  if (ratio <= WRAP_RATIO) return undefined;
  const count = Math.max(2, Math.round(Math.sqrt(ratio / TARGET))) + more;
  const { owner, members: level } = longestLevel(nodes, laid, f);
  if (level.length < 2) return undefined;
  const centre = new Map(
    level.map((n) => {
      const a = f.fromReal(laid.nodes.get(n.id) as Box);
      return [n.id, a.along0 + a.along / 2];
    }),
  );
  const lo = Math.min(...centre.values());
  const hi = Math.max(...centre.values());
  const band = (v: number) => Math.min(count - 1, Math.floor(((v - lo) / (hi - lo + 1)) * count));
  const members: N[][] = Array.from({ length: count }, () => []);
  const bandOf = new Map<string, string>();
  for (const n of level) {
    const b = band(centre.get(n.id) as number);
    members[b]?.push(n);
    bandOf.set(n.id, `wrap:${b}`);
  }
  const pad = { top: 0, bottom: 0, left: BAND_PAD, right: BAND_PAD };
  const bands = members.flatMap((children, b) =>
    children.length === 0
      ? []
      : [
          {
            id: `wrap:${b}`,
            width: 0,
            height: 0,
            children,
            padding: pad,
            order: b,
          } as unknown as N,
        ],
  );
  const ids = bands.map((b) => b.id);
  if (!owner) return { nodes: bands, bands: ids, bandOf };
  // Bands inside a compound node: the graph keeps its top level, the node holds the bands.
  const replace = (list: N[]): N[] =>
    list.map((n) =>
      n === owner
        ? { ...n, children: bands }
        : n.children?.length
          ? { ...n, children: replace(n.children as N[]) }
          : n,
    );
  return { nodes: replace(nodes), bands: ids, bandOf };
}
