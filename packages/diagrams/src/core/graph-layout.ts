/**
 * A layered (Sugiyama-style) graph layout: pure, synchronous and deterministic. Compound nodes
 * hold a graph of their own, laid out first and then placed as one box; an edge between two
 * regions is laid out in the innermost region holding both ends. Steps per region: cycle
 * breaking (depth-first from the first-ranked nodes), longest-path layering with every edge two
 * layers long (the middle layer holds its label), barycenter crossing reduction, least-squares
 * coordinate assignment (weighted pool-adjacent-violators, so long edges run straight),
 * orthogonal routes with their bends in channels between layers. Reference: docs/decisions.md.
 */
import { type Box, boxesOverlap, inflate } from "./geometry.js";
import { labelOnPath, pathHits, routeAround } from "./graph-layout/avoid.js";
import { type Abstract, type Frame, frame } from "./graph-layout/frame.js";
import { orderLayers } from "./graph-layout/order.js";
import { placeAcross } from "./graph-layout/place.js";
import { rankNodes } from "./graph-layout/rank.js";
import type { Point } from "./model.js";

export type GraphDirection = "right" | "down" | "left" | "up";

export interface GraphNode {
  id: string;
  width: number;
  height: number;
  /** Compound node: laid out recursively; its box holds them within `padding`. */
  children?: GraphNode[];
  padding?: { top: number; right: number; bottom: number; left: number };
  /** Initial states open their region, final states close it. */
  rank?: "first" | "last";
  /** Within its layer, hinted nodes take their slots in this order (lower first). */
  order?: number;
  /**
   * Compound nodes: an area (from the node's top left corner) no other node's edge may cross,
   * e.g. where its title is written.
   */
  keepOut?: Box;
}

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  /** The label's size; the edge passes through its middle. */
  label?: { width: number; height: number };
  /** Laid out like the others (it pulls its ends together) but not drawn nor returned. */
  hidden?: boolean;
}

export interface GraphSpacing {
  /** Between two nodes of one layer. */
  node: number;
  /** Between an edge (or label) and its neighbour in a layer. */
  edge: number;
  /** Between two layers of nodes. */
  layer: number;
}

export interface GraphLayoutInput {
  nodes: GraphNode[];
  edges: GraphEdge[];
  direction: GraphDirection;
  spacing: GraphSpacing;
}

/** An edge as laid out: its polyline and the box kept free for its label. */
export interface LaidEdge {
  points: Point[];
  label?: Box;
}

export interface GraphLayout {
  width: number;
  height: number;
  /** Every node, nested ones included, from the drawing's top left corner. */
  nodes: Map<string, Box>;
  edges: Map<string, LaidEdge>;
}

interface Region {
  width: number;
  height: number;
  nodes: Map<string, Box>;
  edges: Map<string, LaidEdge>;
}

/** Lays out a graph; throws when an edge names a node that is not there. */
export function layoutGraph(input: GraphLayoutInput): GraphLayout {
  const parent = new Map<string, string | undefined>();
  const walk = (list: GraphNode[], p: string | undefined) => {
    for (const n of list) {
      parent.set(n.id, p);
      walk(n.children ?? [], n.id);
    }
  };
  walk(input.nodes, undefined);
  const chain = (id: string): string[] => {
    const out: string[] = [];
    for (let at: string | undefined = id; at !== undefined; at = parent.get(at)) out.unshift(at);
    return out;
  };
  // Each edge belongs to the innermost region holding both ends, between that region's nodes.
  const byRegion = new Map<string | undefined, RegionEdge[]>();
  for (const e of input.edges) {
    if (!parent.has(e.from) || !parent.has(e.to)) {
      throw new Error(`edge ${e.id} joins ${e.from} and ${e.to}, which are not both nodes`);
    }
    const a = chain(e.from);
    const b = chain(e.to);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    // One end inside the other: a loop on the outer one.
    const region =
      i === 0
        ? undefined
        : i >= a.length || i >= b.length
          ? parent.get(a[i - 1] as string)
          : a[i - 1];
    const depth = region === undefined ? 0 : chain(region).length;
    const from = a[depth] as string;
    const to = b[depth] as string;
    const list = byRegion.get(region) ?? [];
    list.push({ ...e, endFrom: from, endTo: to });
    byRegion.set(region, list);
  }
  const f = frame(input.direction);
  const root = layoutRegion(input.nodes, undefined, byRegion, f, input.spacing);
  for (const e of input.edges) if (e.hidden) root.edges.delete(e.id);
  avoidBoxes(root, input, parent);
  return root;
}

/**
 * Reroutes the edges that pass through a node they do not join (or through a compound node
 * holding neither end, or a node's keep-out area, or another edge's label) around everything,
 * and moves their labels onto the new line. Grows the drawing when a line goes round its edge.
 */
function avoidBoxes(
  root: Region,
  input: GraphLayoutInput,
  parent: Map<string, string | undefined>,
): void {
  const compound = new Set<string>();
  const keepOut = new Map<string, Box>();
  const walk = (list: GraphNode[]) => {
    for (const n of list) {
      if (n.children && n.children.length > 0) compound.add(n.id);
      if (n.keepOut) {
        const b = root.nodes.get(n.id) as Box;
        keepOut.set(n.id, { ...n.keepOut, x: b.x + n.keepOut.x, y: b.y + n.keepOut.y });
      }
      walk(n.children ?? []);
    }
  };
  walk(input.nodes);
  const around = (id: string): Set<string> => {
    const out = new Set<string>();
    for (let at: string | undefined = id; at !== undefined; at = parent.get(at)) out.add(at);
    return out;
  };
  const used = new Map<string, number>();
  for (const e of input.edges) {
    if (e.hidden || e.from === e.to) continue;
    const laid = root.edges.get(e.id);
    if (!laid) continue;
    const mine = new Set([...around(e.from), ...around(e.to)]);
    const obstacles: Box[] = [];
    for (const [id, b] of root.nodes) {
      if (mine.has(id)) continue;
      // A compound node around neither end is one obstacle; what it holds is inside it.
      const p = parent.get(id);
      if (p !== undefined && !mine.has(p)) continue;
      obstacles.push(b);
    }
    for (const [id, b] of keepOut) if (id !== e.from && id !== e.to) obstacles.push(b);
    // Another edge's label, with a little room: a line running along its border reads as its.
    for (const [id, other] of root.edges)
      if (id !== e.id && other.label) obstacles.push(inflate(other.label, 3));
    const clear =
      !pathHits(laid.points, obstacles) &&
      !(laid.label && obstacles.some((o) => boxesOverlap(o, laid.label as Box)));
    if (clear) continue;
    const from = root.nodes.get(e.from) as Box;
    const to = root.nodes.get(e.to) as Box;
    const points = routeAround({
      from,
      to,
      obstacles,
      fromUsed: used.get(e.from) ?? 0,
      toUsed: used.get(e.to) ?? 0,
    });
    if (!points) continue;
    used.set(e.from, (used.get(e.from) ?? 0) + 1);
    used.set(e.to, (used.get(e.to) ?? 0) + 1);
    const entry: { points: Point[]; label?: Box } = { points };
    if (e.label) {
      const lines = [...root.edges].filter(([id]) => id !== e.id).map(([, o]) => o.points);
      const outlines = [...compound].map((id) => root.nodes.get(id) as Box);
      entry.label = labelOnPath(points, e.label, [...obstacles, from, to], lines, outlines);
    }
    root.edges.set(e.id, entry);
  }
  // Lines routed round the outside may leave the drawing: grow it to hold them.
  let x0 = 0;
  let y0 = 0;
  let x1 = root.width;
  let y1 = root.height;
  for (const e of root.edges.values()) {
    for (const p of e.points) {
      x0 = Math.min(x0, p.x);
      y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x);
      y1 = Math.max(y1, p.y);
    }
    if (e.label) {
      x0 = Math.min(x0, e.label.x);
      y0 = Math.min(y0, e.label.y);
      x1 = Math.max(x1, e.label.x + e.label.width);
      y1 = Math.max(y1, e.label.y + e.label.height);
    }
  }
  if (x0 < 0 || y0 < 0) {
    for (const [k, b] of root.nodes) root.nodes.set(k, { ...b, x: b.x - x0, y: b.y - y0 });
    for (const e of root.edges.values()) {
      e.points = e.points.map((p) => ({ x: p.x - x0, y: p.y - y0 }));
      if (e.label) e.label = { ...e.label, x: e.label.x - x0, y: e.label.y - y0 };
    }
  }
  root.width = x1 - x0;
  root.height = y1 - y0;
}

interface RegionEdge extends GraphEdge {
  /** The region's own nodes the edge joins (the ends themselves, or the nodes holding them). */
  endFrom: string;
  endTo: string;
}

interface LNode {
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
  loops: number;
}

function layoutRegion(
  nodes: GraphNode[],
  id: string | undefined,
  byRegion: Map<string | undefined, RegionEdge[]>,
  f: Frame,
  sp: GraphSpacing,
): Region {
  // Children first: a compound node's size is its region's plus padding.
  const inner = new Map<string, Region>();
  const sizes = nodes.map((n) => {
    if (!n.children || n.children.length === 0) return { width: n.width, height: n.height };
    const r = layoutRegion(n.children, n.id, byRegion, f, sp);
    inner.set(n.id, r);
    const p = n.padding ?? { top: 0, right: 0, bottom: 0, left: 0 };
    return {
      width: Math.max(n.width, r.width + p.left + p.right),
      height: Math.max(n.height, r.height + p.top + p.bottom),
    };
  });
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const edges = byRegion.get(id) ?? [];
  const loops = edges.filter((e) => e.endFrom === e.endTo);
  const links = edges.filter((e) => e.endFrom !== e.endTo);

  // Self-loops hang on the far side across the layers, their labels beneath: reserved space.
  const loopSpace = nodes.map(() => ({ along: 0, across: 0 }));
  const loopGeo = new Map<string, { depth: number; label?: Abstract }>();
  for (const e of loops) {
    const i = index.get(e.endFrom) as number;
    const space = loopSpace[i] as { along: number; across: number };
    const lab = e.label ? f.size(e.label) : { along: 0, across: 0 };
    const depth = space.across + 14 + lab.across / 2;
    loopGeo.set(e.id, { depth });
    space.across = depth + lab.across / 2 + 4;
    space.along = Math.max(space.along, lab.along);
  }

  const ranks = rankNodes(
    nodes.map((n) => n.rank),
    links.map((e) => [index.get(e.endFrom) as number, index.get(e.endTo) as number]),
  );
  const lnodes: LNode[] = nodes.map((n, i) => {
    const s = f.size(sizes[i] as { width: number; height: number });
    const ls = loopSpace[i] as { along: number; across: number };
    return {
      key: n.id,
      real: i,
      along: Math.max(s.along, ls.along),
      across: s.across + ls.across,
      rank: ranks.rank[i] as number,
      order: i,
      pos: 0,
      loops: ls.across,
      ...(n.order === undefined ? {} : { hint: n.order }),
    };
  });
  // Each link becomes a chain through every layer it spans.
  const chains = links.map((e, k) => {
    const [a, b] = ranks.reversed[k]
      ? [index.get(e.endTo) as number, index.get(e.endFrom) as number]
      : [index.get(e.endFrom) as number, index.get(e.endTo) as number];
    const from = lnodes[a] as LNode;
    const to = lnodes[b] as LNode;
    const mid = from.rank + Math.max(1, Math.floor((to.rank - from.rank) / 2) | 1);
    const path: LNode[] = [from];
    for (let r = from.rank + 1; r < to.rank; r++) {
      const d: LNode = {
        key: `${e.id}#${r}`,
        real: -1,
        along: 0,
        across: 0,
        rank: r,
        order: a,
        pos: 0,
        loops: 0,
      };
      if (r === mid && e.label) {
        const s = f.size(e.label);
        d.along = s.along;
        d.across = s.across;
        d.label = e.id;
      }
      lnodes.push(d);
      path.push(d);
    }
    path.push(to);
    return { edge: e, path, reversed: ranks.reversed[k] === true };
  });

  const layers = orderLayers(
    lnodes,
    chains.map((c) => c.path),
  );
  // Order hints: hinted nodes of a layer take the slots they were given, in hint order.
  for (const l of layers) {
    const slots = l.flatMap((n, i) => (n.hint === undefined ? [] : [i]));
    if (slots.length < 2) continue;
    const hinted = slots
      .map((i) => l[i] as LNode)
      .sort((a, b) => (a.hint as number) - (b.hint as number));
    slots.forEach((slot, k) => {
      l[slot] = hinted[k] as LNode;
      (l[slot] as LNode).order = slot;
    });
  }
  placeAcross(
    layers,
    chains.map((c) => c.path),
    (a, b) => (a.real >= 0 && b.real >= 0 ? sp.node : sp.edge),
  );

  // Along the layers: each layer as thick as its thickest node, channels for bends between.
  const rankCount = layers.length;
  const thick = layers.map((l) => Math.max(0, ...l.map((n) => n.along)));
  const bends = new Array<number>(rankCount).fill(0);
  for (const c of chains) {
    for (let i = 1; i < c.path.length; i++) {
      const r = (c.path[i - 1] as LNode).rank;
      bends[r] = (bends[r] as number) + 1;
    }
  }
  const gap = bends.map((b) => Math.max(sp.layer / 2, (b + 1) * 6));
  const start: number[] = [];
  let at = 0;
  for (let r = 0; r < rankCount; r++) {
    start.push(at);
    at += (thick[r] as number) + (r < rankCount - 1 ? (gap[r] as number) : 0);
  }
  const boxOf = (n: LNode): Abstract => ({
    along0: (start[n.rank] as number) + ((thick[n.rank] as number) - n.along) / 2,
    across0: n.pos,
    along: n.along,
    across: n.across,
  });
  // The node's own box within its reserved space (the rest holds its loops).
  const ownBox = (n: LNode): Abstract => {
    const s = f.size(sizes[n.real] as { width: number; height: number });
    const b = boxOf(n);
    return {
      along0: (start[n.rank] as number) + ((thick[n.rank] as number) - s.along) / 2,
      across0: b.across0,
      along: s.along,
      across: s.across,
    };
  };

  const absNodes = new Map<string, Abstract>();
  for (const n of lnodes) if (n.real >= 0) absNodes.set(n.key, ownBox(n));
  // Descendants' boxes, in this region's abstract frame, for the ends of edges crossing borders.
  const placedInner = new Map<string, Map<string, Box>>();
  const realOf = new Map<string, Box>();
  for (const [key, a] of absNodes) realOf.set(key, f.toReal(a));
  for (const [cid, r] of inner) {
    const node = nodes[index.get(cid) as number] as GraphNode;
    const p = node.padding ?? { top: 0, right: 0, bottom: 0, left: 0 };
    const outer = realOf.get(cid) as Box;
    const m = new Map<string, Box>();
    for (const [k, b] of r.nodes) {
      m.set(k, {
        x: b.x + outer.x + p.left,
        y: b.y + outer.y + p.top,
        width: b.width,
        height: b.height,
      });
    }
    placedInner.set(cid, m);
  }
  const endBox = (end: string, actual: string): Abstract => {
    if (end === actual) return absNodes.get(end) as Abstract;
    const b = placedInner.get(end)?.get(actual);
    return b ? f.fromReal(b) : (absNodes.get(end) as Abstract);
  };

  // Ports: edges leaving one side of a node spread along it, in the order of where they go.
  const portOut = new Map<string, number>();
  const portIn = new Map<string, number>();
  const spread = (n: LNode, list: { id: string; toward: number }[], into: Map<string, number>) => {
    const box = absNodes.get(n.key) as Abstract;
    const mid = box.across0 + box.across / 2;
    list.sort((x, y) => x.toward - y.toward);
    if (box.across <= 30 || list.length === 1) {
      // One edge, or a small shape: straight at what it points to when that is in reach.
      for (const e of list) {
        const reach = box.across <= 30 ? 0 : box.across / 2 - 6;
        into.set(e.id, Math.abs(e.toward - mid) <= reach ? e.toward : mid);
      }
      return;
    }
    // Several: each straight where it can be, otherwise evenly spread along the side.
    const wanted = list.map((e) =>
      Math.min(box.across0 + box.across - 6, Math.max(box.across0 + 6, e.toward)),
    );
    const apart = wanted.every((w, k) => k === 0 || w - (wanted[k - 1] as number) >= 8);
    list.forEach((e, k) => {
      into.set(
        e.id,
        apart ? (wanted[k] as number) : box.across0 + (box.across * (k + 1)) / (list.length + 1),
      );
    });
  };
  const outs = new Map<LNode, { id: string; toward: number }[]>();
  const ins = new Map<LNode, { id: string; toward: number }[]>();
  const centre = (n: LNode) => n.pos + n.across / 2;
  for (const c of chains) {
    const first = c.path[0] as LNode;
    const last = c.path[c.path.length - 1] as LNode;
    const next = c.path[1] as LNode;
    const prev = c.path[c.path.length - 2] as LNode;
    const o = outs.get(first) ?? [];
    o.push({ id: c.edge.id, toward: centre(next) });
    outs.set(first, o);
    const i = ins.get(last) ?? [];
    i.push({ id: c.edge.id, toward: centre(prev) });
    ins.set(last, i);
  }
  for (const [n, list] of outs) spread(n, list, portOut);
  for (const [n, list] of ins) spread(n, list, portIn);
  // Edges whose end is inside a compound node leave (or enter) that end's own box: spread too,
  // so two lines from one nested node do not start at one point.
  const nestedEnds = new Map<string, { id: string; toward: number; out: boolean }[]>();
  for (const c of chains) {
    const e = c.edge;
    const [fromEnd, toEnd] = c.reversed ? [e.to, e.from] : [e.from, e.to];
    const first = c.path[0] as LNode;
    const last = c.path[c.path.length - 1] as LNode;
    if (first.key !== fromEnd) {
      const l = nestedEnds.get(`o:${fromEnd}`) ?? [];
      l.push({ id: e.id, toward: centre(c.path[1] as LNode), out: true });
      nestedEnds.set(`o:${fromEnd}`, l);
    }
    if (last.key !== toEnd) {
      const l = nestedEnds.get(`i:${toEnd}`) ?? [];
      l.push({ id: e.id, toward: centre(c.path[c.path.length - 2] as LNode), out: false });
      nestedEnds.set(`i:${toEnd}`, l);
    }
  }
  const nestedPort = new Map<string, number>();
  for (const [key, list] of nestedEnds) {
    if (list.length < 2) continue;
    const id = key.slice(2);
    const holder = chains.find((c) => c.edge.id === (list[0] as { id: string }).id) as {
      path: LNode[];
      edge: RegionEdge;
      reversed: boolean;
    };
    const end = key.startsWith("o:")
      ? (holder.path[0] as LNode)
      : (holder.path[holder.path.length - 1] as LNode);
    const box = endBox(end.key, id);
    list.sort((a, b) => a.toward - b.toward);
    list.forEach((x, k) => {
      nestedPort.set(`${key[0]}:${x.id}`, box.across0 + (box.across * (k + 1)) / (list.length + 1));
    });
  }

  // Each bend between layers r and r+1 gets its own channel.
  const used = new Array<number>(rankCount).fill(0);
  const channel = (r: number): number => {
    const k = (used[r] as number) + 1;
    used[r] = k;
    const g = gap[r] as number;
    const g0 = (start[r] as number) + (thick[r] as number);
    return g0 + (g * k) / ((bends[r] as number) + 1);
  };

  const out: Region = { width: 0, height: 0, nodes: new Map(), edges: new Map() };
  const abstractEdges = new Map<
    string,
    { points: { along: number; across: number }[]; label?: Abstract }
  >();
  for (const c of chains) {
    const e = c.edge;
    const [fromEnd, toEnd] = c.reversed ? [e.to, e.from] : [e.from, e.to];
    const first = c.path[0] as LNode;
    const last = c.path[c.path.length - 1] as LNode;
    const sBox = endBox(first.key, fromEnd);
    const tBox = endBox(last.key, toEnd);
    const sAcross =
      first.key === fromEnd
        ? (portOut.get(e.id) as number)
        : (nestedPort.get(`o:${e.id}`) ?? sBox.across0 + sBox.across / 2);
    const tAcross =
      last.key === toEnd
        ? (portIn.get(e.id) as number)
        : (nestedPort.get(`i:${e.id}`) ?? tBox.across0 + tBox.across / 2);
    const pts: { along: number; across: number }[] = [
      { along: sBox.along0 + sBox.along, across: sAcross },
    ];
    let across = sAcross;
    for (let i = 1; i < c.path.length; i++) {
      const n = c.path[i] as LNode;
      const isLast = i === c.path.length - 1;
      const target = isLast ? tAcross : centre(n);
      if (Math.abs(target - across) > 0.01) {
        const ch = channel(n.rank - 1);
        pts.push({ along: ch, across }, { along: ch, across: target });
        across = target;
      }
      if (isLast) pts.push({ along: tBox.along0, across });
    }
    const labelNode = c.path.find((n) => n.label === e.id);
    const entry: { points: { along: number; across: number }[]; label?: Abstract } = {
      points: c.reversed ? pts.reverse() : pts,
    };
    if (labelNode) entry.label = boxOf(labelNode);
    abstractEdges.set(e.id, entry);
  }
  for (const e of loops) {
    const host = lnodes[index.get(e.endFrom) as number] as LNode;
    const box = absNodes.get(host.key) as Abstract;
    const g = loopGeo.get(e.id) as { depth: number };
    const foot = box.across0 + box.across;
    const a1 = box.along0 + box.along * 0.3;
    const a2 = box.along0 + box.along * 0.7;
    const low = foot + g.depth;
    const entry: { points: { along: number; across: number }[]; label?: Abstract } = {
      points: [
        { along: a1, across: foot },
        { along: a1, across: low },
        { along: a2, across: low },
        { along: a2, across: foot },
      ],
    };
    if (e.label) {
      const s = f.size(e.label);
      entry.label = {
        along0: (a1 + a2) / 2 - s.along / 2,
        across0: low - s.across / 2,
        along: s.along,
        across: s.across,
      };
    }
    abstractEdges.set(e.id, entry);
  }

  // To real coordinates, shifted so the region starts at (0, 0).
  const realNodes = new Map<string, Box>();
  for (const [k, a] of absNodes) realNodes.set(k, f.toReal(a));
  const reserved = lnodes.filter((n) => n.real >= 0).map((n) => f.toReal(boxOf(n)));
  const realEdges = new Map<string, { points: Point[]; label?: Box }>();
  for (const [k, e] of abstractEdges) {
    const entry: { points: Point[]; label?: Box } = {
      points: simplify(e.points.map((p) => f.point(p))),
    };
    if (e.label) entry.label = f.toReal(e.label);
    realEdges.set(k, entry);
  }
  const xs: number[] = [];
  const ys: number[] = [];
  const take = (b: Box) => {
    xs.push(b.x, b.x + b.width);
    ys.push(b.y, b.y + b.height);
  };
  reserved.forEach(take);
  for (const e of realEdges.values()) {
    if (e.label) take(e.label);
    for (const p of e.points) take({ x: p.x, y: p.y, width: 0, height: 0 });
  }
  const x0 = xs.length ? Math.min(...xs) : 0;
  const y0 = ys.length ? Math.min(...ys) : 0;
  const shift = (b: Box): Box => ({ x: b.x - x0, y: b.y - y0, width: b.width, height: b.height });
  out.width = xs.length ? Math.max(...xs) - x0 : 0;
  out.height = ys.length ? Math.max(...ys) - y0 : 0;
  for (const [k, b] of realNodes) {
    const s = shift(b);
    out.nodes.set(k, s);
    const r = inner.get(k);
    if (!r) continue;
    const p = (nodes[index.get(k) as number] as GraphNode).padding ?? {
      top: 0,
      right: 0,
      bottom: 0,
      left: 0,
    };
    const dx = s.x + p.left;
    const dy = s.y + p.top;
    for (const [ik, ib] of r.nodes) out.nodes.set(ik, { ...ib, x: ib.x + dx, y: ib.y + dy });
    for (const [ek, ee] of r.edges) {
      const moved: { points: Point[]; label?: Box } = {
        points: ee.points.map((p2) => ({ x: p2.x + dx, y: p2.y + dy })),
      };
      if (ee.label) moved.label = { ...ee.label, x: ee.label.x + dx, y: ee.label.y + dy };
      out.edges.set(ek, moved);
    }
  }
  for (const [k, e] of realEdges) {
    const moved: { points: Point[]; label?: Box } = {
      points: e.points.map((p) => ({ x: p.x - x0, y: p.y - y0 })),
    };
    if (e.label) moved.label = shift(e.label);
    out.edges.set(k, moved);
  }
  return out;
}

/** Drops repeated points and the middle of three points on one line. */
function simplify(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.x - p.x) < 0.01 && Math.abs(last.y - p.y) < 0.01) continue;
    const prev = out[out.length - 2];
    if (last && prev) {
      const sameX = Math.abs(prev.x - last.x) < 0.01 && Math.abs(last.x - p.x) < 0.01;
      const sameY = Math.abs(prev.y - last.y) < 0.01 && Math.abs(last.y - p.y) < 0.01;
      if (sameX || sameY) out.pop();
    }
    out.push(p);
  }
  return out;
}
