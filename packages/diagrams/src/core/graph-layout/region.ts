import type { Box } from "../geometry.js";
import type { Point } from "../model.js";
import type { Abstract, Frame } from "./frame.js";

/** What one region of the layout needs of the public types (kept here so stages share them). */
export interface RegionNode {
  id: string;
  width: number;
  height: number;
  children?: RegionNode[];
  padding?: { top: number; right: number; bottom: number; left: number };
  rank?: "first" | "last";
  order?: number;
  beside?: { id: string; width: number; height: number; side: "start" | "end" };
}

export interface RegionEdge {
  id: string;
  from: string;
  to: string;
  label?: { width: number; height: number };
  hidden?: boolean;
  /** The region's own nodes the edge joins (the ends themselves, or the nodes holding them). */
  endFrom: string;
  endTo: string;
  /** Closes a cycle of the described graph (graph-layout/cycles.ts). */
  cyclic: boolean;
}

export interface Spacing {
  node: number;
  edge: number;
  layer: number;
}

/** A region as laid out, from its own top left corner. */
export interface Region {
  width: number;
  height: number;
  nodes: Map<string, Box>;
  edges: Map<string, { points: Point[]; label?: Box }>;
  /** Edges laid out from head to tail (drawn against the main direction), nested ones included. */
  against: Set<string>;
}

/** A node of the layered graph: a region's node, or an edge's point in a layer. */
export interface LNode {
  key: string;
  /** Index into the region's nodes, or -1 for an edge's point in a layer. */
  real: number;
  along: number;
  across: number;
  rank: number;
  order: number;
  pos: number;
  /** The node's order hint, if any. */
  hint?: number;
  /** Label dummies carry their edge's label. */
  label?: string;
  /** Across the layers: room before the node's own box (a box beside it on the start side). */
  lead: number;
  /** Across the layers: the node's own box (the rest of `across` holds loops and boxes beside). */
  own: number;
}

/** A link between two nodes of the region, as a chain through every layer it spans. */
export interface Chain {
  edge: RegionEdge;
  path: LNode[];
  /** Laid out from its head to its tail (it closes a cycle, or is turned by a rank). */
  reversed: boolean;
}

export type AbstractEdge = { points: { along: number; across: number }[]; label?: Abstract };

/** Everything the stages of one region's layout read and write, in the order they fill it. */
export interface RegionState {
  f: Frame;
  sp: Spacing;
  nodes: RegionNode[];
  index: Map<string, number>;
  /** measure: each node's size (compound nodes: their region plus padding) and inner layouts. */
  sizes: { width: number; height: number }[];
  inner: Map<string, Region>;
  loops: RegionEdge[];
  links: RegionEdge[];
  /** measure: room kept beside each node for its self-loops and for the box beside it. */
  aside: {
    along: number;
    across: number;
    lead: number;
    loops: number;
    /** The loops hang before the node across the layers (its far side holds a note). */
    loopsBefore: boolean;
  }[];
  loopDepth: Map<string, number>;
  /** rank: the layered graph. */
  lnodes: LNode[];
  chains: Chain[];
  /** order: nodes of each layer, in order across. */
  layers: LNode[][];
  /** place: where each layer starts along, how thick it is, and the channel after it. */
  start: number[];
  thick: number[];
  gap: number[];
  /** place: room in each channel before its tracks (a border drawn round earlier layers). */
  lead: number[];
  /** place: each real node's own box; the boxes of nested nodes in this region's frame. */
  own: Map<string, Abstract>;
  placedInner: Map<string, Map<string, Box>>;
  /** ports: where each edge leaves and arrives across its end's side. */
  portOut: Map<string, number>;
  portIn: Map<string, number>;
  /** route: each edge's polyline and label box. */
  routes: Map<string, AbstractEdge>;
}

export const NO_PADDING = { top: 0, right: 0, bottom: 0, left: 0 } as const;

/** Room between a node and the box beside it. */
export const BESIDE_GAP = 16;

/** Between a self-loop's far run and its label, and between that label and what lies beyond. */
export const LOOP_LABEL_GAP = 4;

/** The middle of a node's own box across the layers (where edges aim). */
export function centre(n: LNode): number {
  return n.pos + n.lead + n.own / 2;
}

/** A region's state before its stages run: its nodes, its links and self-loops apart. */
export function regionState(
  nodes: RegionNode[],
  edges: RegionEdge[],
  f: Frame,
  sp: Spacing,
): RegionState {
  return {
    f,
    sp,
    nodes,
    index: new Map(nodes.map((n, i) => [n.id, i])),
    sizes: [],
    inner: new Map(),
    loops: edges.filter((e) => e.endFrom === e.endTo),
    links: edges.filter((e) => e.endFrom !== e.endTo),
    aside: [],
    loopDepth: new Map(),
    lnodes: [],
    chains: [],
    layers: [],
    start: [],
    thick: [],
    gap: [],
    lead: [],
    own: new Map(),
    placedInner: new Map(),
    portOut: new Map(),
    portIn: new Map(),
    routes: new Map(),
  };
}
