/**
 * Wrapping ranks: a graph much longer along its flow than across (a long chain of states) is
 * cut into bands of consecutive layers, laid side by side across like newspaper columns, so the
 * drawing fits a page. Each band is an invisible compound node of the top level (one layer, so
 * the bands stand side by side in order); an edge from one band to another is left out of the
 * layered layout and routed around everything afterwards.
 */
import type { Box } from "../geometry.js";
import type { Frame } from "./frame.js";

/** Beyond this length-to-width ratio of the laid-out graph, its layers wrap. */
export const WRAP_RATIO = 2.2;
/** The ratio the bands aim at (a little taller than wide in a top-down drawing). */
const TARGET = 1.2;
/** Room kept on each side inside a band, for the lines that go from one band to the next. */
const BAND_PAD = 20;

export interface WrapNode {
  id: string;
  width: number;
  height: number;
  children?: WrapNode[];
  padding?: { top: number; right: number; bottom: number; left: number };
  order?: number;
}

export interface WrapPlan<N extends WrapNode> {
  nodes: N[];
  /** The invisible band nodes (not drawn, not returned). */
  bands: string[];
  /** Top-level node → its band. */
  bandOf: Map<string, string>;
}

/** Bands for an unwrapped layout, or undefined when it fits without wrapping. */
export function wrapPlan<N extends WrapNode>(
  nodes: N[],
  laid: { width: number; height: number; nodes: Map<string, Box> },
  f: Frame,
): WrapPlan<N> | undefined {
  const size = f.size(laid);
  const ratio = size.along / Math.max(1, size.across);
  if (ratio <= WRAP_RATIO || nodes.length < 2) return undefined;
  const count = Math.max(2, Math.round(Math.sqrt(ratio / TARGET)));
  const centre = new Map(
    nodes.map((n) => {
      const a = f.fromReal(laid.nodes.get(n.id) as Box);
      return [n.id, a.along0 + a.along / 2];
    }),
  );
  const lo = Math.min(...centre.values());
  const hi = Math.max(...centre.values());
  const band = (v: number) => Math.min(count - 1, Math.floor(((v - lo) / (hi - lo + 1)) * count));
  const members: N[][] = Array.from({ length: count }, () => []);
  const bandOf = new Map<string, string>();
  for (const n of nodes) {
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
  return { nodes: bands, bands: bands.map((b) => b.id), bandOf };
}
