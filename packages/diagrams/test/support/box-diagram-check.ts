import {
  type Box,
  boxContains,
  boxesOverlap,
  inflate,
  outlineCrosses,
  outlineCrossings,
  runsAlongOutline,
  segmentHitsBox,
  segmentMeetsBox,
} from "../../src/core/geometry.js";
import { MIN_RUN, TRACK_LIMIT } from "../../src/core/graph-check.js";
import type { Point } from "../../src/core/model.js";
import { readSvg, type SvgGeometry } from "./svg-geometry.js";

/**
 * The geometric promises of a box-and-edge diagram (lifecycle, architecture, data-flow),
 * judged on the rendered SVG alone. It reads the drawing's semantic markup:
 *
 * - `<g class="node …" data-id data-parent?>`: an element; its box is the box of the first
 *   shape it draws (its outline: draw icons and decorations after it). `data-parent` names
 *   the boundary holding it.
 * - `<g class="boundary …" data-id data-parent?>`: a boundary (a box holding elements); an
 *   element that another names as its `data-parent` is a boundary too (composite states).
 * - `<g class="edge …" data-id data-from data-to>` holding `<path class="edge-line">`: an edge.
 * - `<g class="edge-label" data-edge>` holding a `<rect>` and text: the label of that edge.
 * - `<g class="legend">`: drawn like an element (nothing may cross it).
 * Every <text> belongs to the innermost of those groups around it (none: the title block).
 *
 * What is checked, each finding as one sentence:
 * - children inside their boundary; elements, and boundaries that do not hold one another,
 *   never overlap;
 * - no edge through an element (its own ends included: an edge touches them at their border),
 *   nor through a boundary that holds neither of its ends; with `crossBoundaries` (boundaries
 *   are groupings), an edge may cross such a boundary but enters and leaves it once, and runs
 *   along no boundary's border; with `ports`, no edge leaving an element where another arrives;
 * - no text over another text, over an element it does not belong to, across a boundary's
 *   border, across an edge other than its own, or sticking out of its own element;
 * - every edge label touching its own edge and nearer to it than to any other edge; no label
 *   over an element, another label or a boundary's border.
 */

interface DrawnElement {
  id: string;
  /** element: a node; boundary: a box holding nodes; legend: the key to the drawing. */
  kind: "element" | "boundary" | "legend";
  parent: string | undefined;
  box: Box;
  classes: string[];
}

interface DrawnEdge {
  id: string;
  from: string;
  to: string;
  segments: [Point, Point][];
}

export interface DrawnText {
  /** "kind id" of the group the text belongs to, e.g. "node api", "edge-label f3", "title". */
  owner: string;
  ownerKind: string | undefined;
  ownerId: string | undefined;
  text: string;
  box: Box;
}

export interface BoxDiagram {
  elements: DrawnElement[];
  edges: DrawnEdge[];
  /** Edge id → its label's background. */
  labels: Map<string, Box>;
  /** One entry per text line. */
  texts: DrawnText[];
}

const BOX_PARTS = ["legend", "boundary", "edge-label", "edge", "node"] as const;

function union(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const r = Math.max(...boxes.map((b) => b.x + b.width));
  const b = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: r - x, height: b - y };
}

/** Reads what a box-and-edge SVG draws, through `svg-geometry`'s reader. */
export function readBoxDiagram(svg: string): BoxDiagram {
  return fromGeometry(readSvg(svg, BOX_PARTS));
}

function fromGeometry(g: SvgGeometry): BoxDiagram {
  const groups = new Map<string, { kind: string; attrs: Record<string, string>; boxes: Box[] }>();
  const edgeSegments = new Map<string, [Point, Point][]>();
  const labels = new Map<string, Box>();
  for (const s of g.shapes) {
    const o = s.owner;
    if (!o) continue;
    if (o.kind === "edge") {
      if ((s.class ?? "").split(" ").includes("edge-line")) edgeSegments.set(o.id, s.segments);
      continue;
    }
    if (o.kind === "edge-label") {
      if (s.tag === "rect" && !labels.has(o.id)) labels.set(o.id, s.box);
      continue;
    }
    const key = `${o.kind} ${o.id}`;
    const group = groups.get(key) ?? { kind: o.kind, attrs: o.attrs, boxes: [] };
    group.boxes.push(s.box);
    groups.set(key, group);
  }
  const parents = new Set(
    [...groups.values()].map((v) => v.attrs["data-parent"]).filter((p) => p !== undefined),
  );
  const elements: DrawnElement[] = [...groups.values()].map((v) => {
    const id = v.attrs["data-id"] ?? v.kind;
    const kind =
      v.kind === "legend"
        ? "legend"
        : v.kind === "boundary" || parents.has(id)
          ? "boundary"
          : "element";
    return {
      id,
      kind,
      parent: v.attrs["data-parent"],
      // The outline comes first; icons (relative paths, transforms) are not read reliably.
      box: v.kind === "legend" ? union(v.boxes) : (v.boxes[0] as Box),
      classes: (v.attrs.class ?? "").split(" "),
    };
  });
  // Edges come from their groups (an edge whose line is missing reads as no segments).
  const edges: DrawnEdge[] = [];
  const seen = new Set<string>();
  for (const s of g.shapes) {
    const o = s.owner;
    if (o?.kind !== "edge" || seen.has(o.id)) continue;
    seen.add(o.id);
    edges.push({
      id: o.id,
      from: o.attrs["data-from"] ?? "",
      to: o.attrs["data-to"] ?? "",
      segments: edgeSegments.get(o.id) ?? [],
    });
  }
  const texts: DrawnText[] = g.texts.flatMap((t) =>
    t.lines.map((line, i) => ({
      owner: t.owner ? `${t.owner.kind} ${t.owner.id}` : "title",
      ownerKind: t.owner?.kind,
      ownerId: t.owner?.id,
      text: line,
      box: t.lineBoxes[i] as Box,
    })),
  );
  return { elements, edges, labels, texts };
}

/** The shortest distance between a segment and a box (0 when they meet). */
export function segmentBoxDistance(a: Point, b: Point, box: Box): number {
  if (segmentMeetsBox(a, b, box)) return 0;
  const pointBox = (p: Point) =>
    Math.hypot(
      Math.max(box.x - p.x, 0, p.x - (box.x + box.width)),
      Math.max(box.y - p.y, 0, p.y - (box.y + box.height)),
    );
  const pointSegment = (p: Point) => {
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = dx * dx + dy * dy;
    const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len));
    return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
  };
  const corners = [
    { x: box.x, y: box.y },
    { x: box.x + box.width, y: box.y },
    { x: box.x, y: box.y + box.height },
    { x: box.x + box.width, y: box.y + box.height },
  ];
  return Math.min(pointBox(a), pointBox(b), ...corners.map(pointSegment));
}

/** The side of `box` nearest to an edge's end, and where along that side it is. */
function sideOf(p: Point, box: Box): { side: string; at: number } {
  const sides = [
    { side: "left", d: Math.abs(p.x - box.x), at: p.y },
    { side: "right", d: Math.abs(p.x - (box.x + box.width)), at: p.y },
    { side: "top", d: Math.abs(p.y - box.y), at: p.x },
    { side: "bottom", d: Math.abs(p.y - (box.y + box.height)), at: p.x },
  ];
  const best = sides.reduce((a, b) => (b.d < a.d ? b : a));
  return { side: best.side, at: best.at };
}

const edgeDistance = (e: DrawnEdge, box: Box) =>
  Math.min(Number.POSITIVE_INFINITY, ...e.segments.map(([a, b]) => segmentBoxDistance(a, b, box)));

interface BoxCheckOptions {
  /** How far (diagram units) a shape may reach into another before it counts; 0.5 by default. */
  tolerance?: number;
  /**
   * Also report an edge leaving an element at the point where another arrives. Off by default
   * until the graph layout keeps the ports of rerouted edges apart (it finds such pairs in the
   * data-flow and architecture drawings of November 2026).
   */
  ports?: boolean;
  /**
   * Boundaries are groupings, not obstacles (architecture): an edge may cross a boundary that
   * holds neither of its ends, entering and leaving it once; no edge runs along a boundary's
   * border (closer than TRACK_LIMIT for MIN_RUN or more). Off: an edge through a boundary
   * holding neither end is a finding (data-flow trust boundaries, composite states).
   */
  crossBoundaries?: boolean;
}

/** Every broken promise of the drawing, as sentences; none: the drawing keeps them all. */
export function boxDiagramProblems(d: BoxDiagram, options: BoxCheckOptions = {}): string[] {
  const eps = options.tolerance ?? 0.5;
  const shrink = (b: Box) => inflate(b, -eps);
  const found: string[] = [];
  const byId = new Map(d.elements.map((e) => [e.id, e]));
  const ancestors = (id: string): string[] => {
    const out: string[] = [];
    for (let p = byId.get(id)?.parent; p !== undefined && !out.includes(p); p = byId.get(p)?.parent)
      out.push(p);
    return out;
  };
  const holds = (outer: string, inner: string) => ancestors(inner).includes(outer);
  const solids = d.elements.filter((e) => e.kind !== "boundary");
  const boundaries = d.elements.filter((e) => e.kind === "boundary");

  // Children inside their boundary; no two elements overlapping.
  for (const e of d.elements) {
    if (e.parent === undefined) continue;
    const parent = byId.get(e.parent);
    if (!parent) found.push(`${e.id} names ${e.parent} as its boundary, which is not drawn`);
    else if (!boxContains(parent.box, e.box)) found.push(`${e.id} is not inside ${e.parent}`);
  }
  for (let i = 0; i < d.elements.length; i++) {
    for (let j = i + 1; j < d.elements.length; j++) {
      const a = d.elements[i] as DrawnElement;
      const b = d.elements[j] as DrawnElement;
      if (holds(a.id, b.id) || holds(b.id, a.id)) continue;
      if (!boxesOverlap(shrink(a.box), shrink(b.box))) continue;
      found.push(`${a.kind} ${a.id} and ${b.kind} ${b.id} overlap`);
    }
  }

  // No edge through an element, nor through a boundary holding neither end (as a grouping: once
  // in and once out), nor along a border.
  for (const e of d.edges) {
    if (e.segments.length === 0) found.push(`edge ${e.id} draws no line`);
    for (const s of solids) {
      if (e.segments.some(([a, b]) => segmentHitsBox(a, b, shrink(s.box)))) {
        const own = s.id === e.from || s.id === e.to ? " (its own end)" : "";
        found.push(`edge ${e.id} passes through ${s.kind} ${s.id}${own}`);
      }
    }
    for (const b of boundaries) {
      if (
        options.crossBoundaries &&
        e.segments.some((s) => runsAlongOutline(s, b.box, TRACK_LIMIT, MIN_RUN))
      ) {
        found.push(`edge ${e.id} runs along the border of boundary ${b.id}`);
      }
      if (b.id === e.from || b.id === e.to || holds(b.id, e.from) || holds(b.id, e.to)) continue;
      if (options.crossBoundaries) {
        const crossings = e.segments.reduce((n, s) => n + outlineCrossings(s, b.box), 0);
        if (crossings > 2) {
          found.push(`edge ${e.id} crosses the border of boundary ${b.id} ${crossings} times`);
        }
      } else if (e.segments.some(([p, q]) => segmentHitsBox(p, q, shrink(b.box)))) {
        found.push(`edge ${e.id} cuts through boundary ${b.id}, which holds neither end`);
      }
    }
  }

  // No edge leaves an element where another arrives: the arrow would read as passing through.
  // (Arrows arriving together merge, as many notations draw them.)
  for (const s of options.ports ? solids : []) {
    const outs: { edge: string; side: string; at: number }[] = [];
    const ins: { edge: string; side: string; at: number }[] = [];
    for (const e of d.edges) {
      const first = e.segments[0]?.[0];
      const last = e.segments[e.segments.length - 1]?.[1];
      if (e.from === s.id && first) outs.push({ edge: e.id, ...sideOf(first, s.box) });
      if (e.to === s.id && last) ins.push({ edge: e.id, ...sideOf(last, s.box) });
    }
    for (const a of outs) {
      for (const b of ins) {
        if (a.edge !== b.edge && a.side === b.side && Math.abs(a.at - b.at) < 3) {
          found.push(`edge ${a.edge} leaves ${s.kind} ${s.id} where edge ${b.edge} arrives`);
        }
      }
    }
  }

  // Texts: clear of each other, of elements not their own, of borders and of other edges.
  const say = (t: DrawnText) => `text "${t.text}" (${t.owner})`;
  for (let i = 0; i < d.texts.length; i++) {
    for (let j = i + 1; j < d.texts.length; j++) {
      const a = d.texts[i] as DrawnText;
      const b = d.texts[j] as DrawnText;
      if (boxesOverlap(shrink(a.box), shrink(b.box))) found.push(`${say(a)} overlaps ${say(b)}`);
    }
  }
  const edgeOf = (t: DrawnText) =>
    t.ownerKind === "edge" || t.ownerKind === "edge-label" ? t.ownerId : undefined;
  for (const t of d.texts) {
    const box = shrink(t.box);
    const mine = t.ownerKind === "node" || t.ownerKind === "boundary" ? t.ownerId : undefined;
    for (const s of solids) {
      if (s.id !== mine && !(s.kind === "legend" && t.ownerKind === "legend")) {
        if (boxesOverlap(box, s.box)) found.push(`${say(t)} is over ${s.kind} ${s.id}`);
      }
    }
    for (const b of boundaries) {
      if (outlineCrosses(box, b.box)) found.push(`${say(t)} is crossed by the border of ${b.id}`);
    }
    for (const e of d.edges) {
      if (e.id === edgeOf(t)) continue;
      if (e.segments.some(([p, q]) => segmentHitsBox(p, q, box))) {
        found.push(`${say(t)} is crossed by edge ${e.id}`);
      }
    }
    const own = mine === undefined ? undefined : byId.get(mine);
    if (own && !boxContains(own.box, box)) found.push(`${say(t)} sticks out of ${own.id}`);
  }

  // Edge labels: on their own edge, nearer to it than to any other, over nothing.
  const edges = new Map(d.edges.map((e) => [e.id, e]));
  const labels = [...d.labels];
  for (const [id, box] of labels) {
    const edge = edges.get(id);
    if (!edge) {
      found.push(`label of ${id} belongs to no drawn edge`);
      continue;
    }
    const own = edgeDistance(edge, box);
    if (own > 0) found.push(`label of ${id} does not touch its edge`);
    for (const other of d.edges) {
      if (other.id === id) continue;
      if (edgeDistance(other, box) <= own + eps) {
        found.push(`label of ${id} is as near to edge ${other.id} as to its own`);
      }
    }
    for (const s of solids) {
      if (boxesOverlap(shrink(box), s.box)) found.push(`label of ${id} is over ${s.kind} ${s.id}`);
    }
    for (const b of boundaries) {
      if (outlineCrosses(shrink(box), b.box)) {
        found.push(`label of ${id} is crossed by the border of ${b.id}`);
      }
    }
    for (const [other, b] of labels) {
      if (other > id && boxesOverlap(shrink(box), shrink(b))) {
        found.push(`labels of ${id} and ${other} overlap`);
      }
    }
  }
  return found;
}
