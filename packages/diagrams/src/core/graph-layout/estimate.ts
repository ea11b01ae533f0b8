/**
 * A layout's size from its layers alone: the first two stages of each region (measure, rank),
 * then along the layers the thicknesses and channels the placing stage would give, and across
 * the widest layer packed tight. No ordering, placing or routing: a few per cent of a layout's
 * cost. Along it is what the rough layout gives; across it is at most the rough layout's (the
 * placing stage only spreads a layer). graph-direction uses it to skip a try that misses the page
 * by far. Reference: docs/decisions.md.
 */
import type { Frame } from "./frame.js";
import type { LNode, Region, RegionEdge, RegionNode, Spacing } from "./region.js";
import { regionState } from "./region.js";
import { measure, placeLayers, type Ranks, rank, spaceBetween } from "./stages.js";

/**
 * The region's size (no nodes nor edges): nested regions estimated first. `ranks`: as in the
 * layout's regions (core/graph-layout's GraphShape), each region's layers read or kept there.
 */
export function estimateRegion(
  nodes: RegionNode[],
  id: string | undefined,
  byRegion: Map<string | undefined, RegionEdge[]>,
  f: Frame,
  sp: Spacing,
  ranks?: Map<string | undefined, Ranks>,
): Region {
  const st = regionState(nodes, byRegion.get(id) ?? [], f, sp);
  measure(st, (n) => estimateRegion(n.children ?? [], n.id, byRegion, f, sp, ranks));
  rank(st, undefined, ranks && { ranks, id });
  const count = st.lnodes.reduce((m, n) => Math.max(m, n.rank + 1), 0);
  const layers: LNode[][] = Array.from({ length: count }, () => []);
  for (const n of st.lnodes) (layers[n.rank] as LNode[]).push(n);
  st.layers = layers;
  let across = 0;
  for (const l of layers) {
    let width = 0;
    l.forEach((n, i) => {
      width += n.across + (i > 0 ? spaceBetween(st, l[i - 1] as LNode, n) : 0);
    });
    across = Math.max(across, width);
  }
  placeLayers(st);
  const last = count - 1;
  const along = count === 0 ? 0 : (st.start[last] as number) + (st.thick[last] as number);
  const real = f.toReal({ along0: 0, across0: 0, along, across });
  return {
    width: real.width,
    height: real.height,
    nodes: new Map(),
    edges: new Map(),
    against: new Set(),
  };
}
