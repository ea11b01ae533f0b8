/**
 * The ports stage: where each edge leaves and arrives across its end's side. Every end on one
 * side of a node (edges leaving and edges arriving alike) has its own port, sorted by where the
 * edge goes next so the lines fan out without crossing; an end straight in line with where it
 * goes keeps that line when the ports stay apart.
 */
import type { Abstract } from "./frame.js";
import { centre, type LNode, type RegionState } from "./region.js";
import { endBox } from "./stages.js";

/** The least distance between two ports on one side. */
const PORT_GAP = 8;

interface End {
  id: string;
  toward: number;
}

/** Ports along `box`'s side for `list`, into `into`, each its own, in the order of `toward`. */
export function spreadPorts(box: Abstract, list: End[], into: Map<string, number>): void {
  list.sort((x, y) => x.toward - y.toward);
  const mid = box.across0 + box.across / 2;
  const margin = Math.min(6, box.across / 4);
  if (list.length === 1) {
    const e = list[0] as End;
    const reach = box.across / 2 - margin;
    into.set(e.id, Math.abs(e.toward - mid) <= reach ? e.toward : mid);
    return;
  }
  const lo = box.across0 + margin;
  const hi = box.across0 + box.across - margin;
  const wanted = list.map((e) => Math.min(hi, Math.max(lo, e.toward)));
  const apart = wanted.every((w, k) => k === 0 || w - (wanted[k - 1] as number) >= PORT_GAP);
  // Otherwise evenly along the side; a side too short for them all spreads them past its middle
  // third no further than the gap allows (small shapes: start, end and choice marks).
  const step = Math.min(
    box.across / (list.length + 1),
    Math.max(PORT_GAP, (hi - lo) / list.length),
  );
  const first = mid - (step * (list.length - 1)) / 2;
  list.forEach((e, k) => {
    into.set(e.id, apart ? (wanted[k] as number) : first + step * k);
  });
}

/** Fills `portOut` (the chain's first node) and `portIn` (its last) for every chain. */
export function ports(st: RegionState): void {
  // Ends on the far side of a node (chains start there) and on its near side (chains end).
  const sides = new Map<string, { box: Abstract; list: End[]; into: Map<string, number> }>();
  const add = (key: string, box: Abstract, end: End, into: Map<string, number>) => {
    const side = sides.get(key) ?? { box, list: [], into };
    side.list.push(end);
    sides.set(key, side);
  };
  for (const c of st.chains) {
    const e = c.edge;
    const [fromEnd, toEnd] = c.reversed ? [e.to, e.from] : [e.from, e.to];
    const first = c.path[0] as LNode;
    const last = c.path[c.path.length - 1] as LNode;
    const next = centre(c.path[1] as LNode);
    const prev = centre(c.path[c.path.length - 2] as LNode);
    // An end nested inside a compound node leaves (or enters) that end's own box.
    add(`far ${fromEnd}`, endBox(st, first.key, fromEnd), { id: e.id, toward: next }, st.portOut);
    add(`near ${toEnd}`, endBox(st, last.key, toEnd), { id: e.id, toward: prev }, st.portIn);
  }
  for (const s of sides.values()) spreadPorts(s.box, s.list, s.into);
}
