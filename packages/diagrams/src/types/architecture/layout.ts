import { fitToViewBox } from "../../core/fit.js";
import { type Box, round } from "../../core/geometry.js";
import type { GraphDrawing } from "../../core/graph-check.js";
import { chooseDirection, drawingWarnings } from "../../core/graph-direction.js";
import {
  finishingLayouter,
  type GraphDirection,
  type GraphEdge,
  type GraphLayout,
  type GraphLayoutInput,
  type GraphNode,
  type LaidEdge,
} from "../../core/graph-layout.js";
import { planLegend } from "../../core/legend.js";
import { labelOn, stackedLabel } from "../../core/line-label.js";
import {
  type ComponentType,
  type EdgeRole,
  LEGEND_CATEGORY,
  type Point,
} from "../../core/model.js";
import type { ArrowLine, NodeBox } from "../../core/svg/boxes.js";
import { brandMonogram } from "../../core/svg/brand.js";
import type { Frame, LegendLayout } from "../../core/svg/document.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { type DrawnText, textCutWarnings } from "../../core/text/cuts.js";
import { placeHeading } from "../../core/text/heading.js";
import { arrowAt, translateBy } from "../../core/translate.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import type { ArchitectureDiagram, Boundary, Element, RelationshipKind, View } from "./model.js";
import { viewsOf, walkDiagram } from "./model.js";
import { type ProjectedView, projectView, type ViewItem, type ViewLeaf } from "./view.js";

/** Sizes of an architecture drawing, in diagram units; every preset shares them. */
const ARCHITECTURE_METRICS = {
  margin: 28,
  titleSize: 22,
  subtitleSize: 13,
  labelSize: 13,
  textSize: 11,
  tagSize: 10,
  edgeLabelSize: 11,
  nodeMinWidth: 170,
  nodeText: 170,
  nodeMinHeight: 60,
  pad: 10,
  icon: 26,
  boundaryPad: 18,
  labelMaxWidth: 170,
  labelPad: 3,
  nodeGap: 28,
  edgeGap: 14,
  layerGap: 56,
} as const;
const AM = ARCHITECTURE_METRICS;

/** Words for each kind in tags and boundary headers. */
export const KIND_WORDS: Record<Element["kind"] | NonNullable<Boundary["kind"]>, string> = {
  person: "Person",
  software_system: "Software system",
  container: "Container",
  component: "Component",
  database: "Database",
  queue: "Queue",
  external_system: "External system",
  enterprise: "Enterprise",
  system: "Software system",
  cloud: "Cloud",
  cluster: "Cluster",
  network: "Network",
  group: "Group",
};

/** How each relationship kind is drawn: the family's line roles. */
const KIND_ROLE: Record<RelationshipKind, EdgeRole> = {
  sync: "main",
  async: "async",
  data: "return",
};

const KIND_LEGEND: Record<RelationshipKind, string> = {
  sync: "Synchronous call",
  async: "Asynchronous message",
  data: "Data read or copied",
};

export interface ElementLayout extends NodeBox {
  /** Closed boundaries: how many elements are inside. */
  hidden?: number;
  parent: string | undefined;
}

export interface BoundaryLayout {
  id: string;
  kind: NonNullable<Boundary["kind"]>;
  box: Box;
  label: TextBlock;
  caption: TextBlock;
  parent: string | undefined;
}

export interface RelationshipLayout extends ArrowLine {
  id: string;
  from: string;
  to: string;
  kind: RelationshipKind;
  role: EdgeRole;
  /** How many relationships this line stands for (more than one: joined onto closed boxes). */
  count: number;
  text?: string;
}

export interface KindLegendItem {
  kind: RelationshipKind;
  swatch: Box;
  text: TextBlock;
}

export interface ArchitectureLayout extends Frame {
  meta: ArchitectureDiagram["meta"];
  view: View;
  /** Outer boundaries come before the ones they hold (drawing order). */
  boundaries: BoundaryLayout[];
  elements: ElementLayout[];
  relationships: RelationshipLayout[];
  legend?: LegendLayout;
  kinds: KindLegendItem[];
  /** What the drawing could not keep of its reading promises (core/graph-check). */
  warnings?: UnlocatedProblem[];
}

interface MeasuredLeaf {
  width: number;
  height: number;
  label: TextBlock;
  sublabel?: TextBlock;
  tag: TextBlock;
}

function tagText(leaf: ViewLeaf): string {
  const e = leaf.element;
  const kind = KIND_WORDS[leaf.boundaryKind ?? e.kind];
  const what = leaf.hidden === undefined ? kind : `${kind}, ${leaf.hidden} inside`;
  return e.technology ? `${what} · ${e.technology}` : what;
}

function measureLeaf(leaf: ViewLeaf): MeasuredLeaf {
  const e = leaf.element;
  const label = textBlock(e.label, AM.labelSize, "semibold", AM.nodeText, 3);
  const sublabel =
    e.description !== undefined && e.description !== ""
      ? textBlock(e.description, AM.textSize, "regular", AM.nodeText, 3)
      : undefined;
  const tag = textBlock(tagText(leaf), AM.tagSize, "regular", AM.nodeText + 50, 1);
  const textW = Math.max(label.box.width, sublabel?.box.width ?? 0, tag.box.width + 12);
  const textH =
    label.box.height + (sublabel ? 2 + sublabel.box.height : 0) + 6 + tag.box.height + 4;
  const measured: MeasuredLeaf = {
    // A brand badge takes the top right corner: room for it beside the text.
    width: Math.ceil(Math.max(AM.nodeMinWidth, textW + AM.icon + 3 * AM.pad) + (e.brand ? 26 : 0)),
    height: Math.ceil(Math.max(AM.nodeMinHeight, textH + 2 * AM.pad)),
    label,
    tag,
  };
  if (sublabel) measured.sublabel = sublabel;
  return measured;
}

function edgeText(
  label: string | undefined,
  technology: string | undefined,
): TextBlock | undefined {
  const parts = [label, technology ? `[${technology}]` : undefined].filter(
    (p): p is string => p !== undefined && p !== "",
  );
  if (parts.length === 0) return undefined;
  return stackedLabel(parts, AM.edgeLabelSize, AM.labelMaxWidth);
}

/** The view named `viewId`, or the first; throws on an id the description does not have. */
function pickView(d: ArchitectureDiagram, viewId?: string): View {
  const views = viewsOf(d);
  if (viewId === undefined) return views[0] as View;
  const found = views.find((v) => v.id === viewId);
  if (!found) {
    throw new Error(
      `no view "${viewId}" in this description; its views are ${views.map((v) => v.id).join(", ")}`,
    );
  }
  return found;
}

/**
 * Lays out one view of a validated architecture description with the layered graph layout
 * (core/graph-layout): open boundaries are compound nodes holding exactly what is shown inside
 * them, relationships may cross their borders (a boundary is a grouping, not an obstacle: a line
 * may pass through one holding neither end) and are routed round every element box they do not
 * join and every boundary's title.
 * Every number is rounded, so the same description gives the same SVG on every machine.
 */
export function layoutArchitecture(d: ArchitectureDiagram, viewId?: string): ArchitectureLayout {
  // Callers before what they call, left to right, unless that is too wide for a page.
  const drawing = (l: ArchitectureLayout, checkAspect = false): GraphDrawing => ({
    width: l.width,
    height: l.height,
    edges: l.relationships.map((r) => ({ id: r.id, points: r.points })),
    checkAspect,
  });
  // A left-to-right try is first laid out roughly (sizes only); if kept, it finishes that layout.
  // Every try measures the same view: once is enough.
  const layoutWith = finishingLayouter();
  const graph = viewGraph(d, pickView(d, viewId));
  addNearHints(graph, graph.projected.items);
  const layout = chooseDirection(
    d.meta.direction,
    "right",
    (dir, wrap, rough) => layoutIn(graph, dir, wrap, rough, layoutWith),
    drawing,
  );
  const index = new Map((d.relationships ?? []).map((r, i) => [r.id ?? `r${i}`, i]));
  const warnings = drawingWarnings(drawing(layout, d.meta.direction === undefined), (id) =>
    id === undefined ? "/meta" : `/relationships/${index.get(id) ?? 0}`,
  );
  warnings.push(...textCutWarnings(drawnText(d, graph, index, layout)));
  if (warnings.length > 0) layout.warnings = warnings;
  return layout;
}

/** Every text the view wraps, with where the description holds it. */
function* drawnText(
  d: ArchitectureDiagram,
  graph: ViewGraph,
  relationIndex: Map<string, number>,
  layout: ArchitectureLayout,
): Iterable<DrawnText> {
  const walked = walkDiagram(d);
  const pointers = new Map<string, string>([
    ...walked.elements.map((e) => [e.element.id, e.pointer] as const),
    ...walked.boundaries.map((b) => [b.boundary.id, b.pointer] as const),
  ]);
  yield [layout.title, "/meta/title"];
  yield [layout.subtitle, "/meta/subtitle"];
  for (const [id, m] of graph.measured) {
    const at = pointers.get(id) ?? "";
    yield [m.label, `${at}/label`];
    yield [m.sublabel, `${at}/description`];
    yield [m.tag, `${at}/technology`, "kind and technology"];
  }
  for (const [id, h] of graph.headers) {
    const at = pointers.get(id) ?? "";
    yield [h.label, `${at}/label`];
    yield [h.caption, `${at}/technology`, "kind and technology"];
  }
  for (const [id, block] of graph.labels) {
    const i = relationIndex.get(id);
    const r = i === undefined ? undefined : d.relationships?.[i];
    const at = i === undefined ? "/relationships" : `/relationships/${i}`;
    const parts = (block as { parts?: TextBlock[] }).parts ?? [block];
    const fields = r ? (["label", "technology"] as const).filter((f) => r[f]) : [];
    for (const [k, part] of parts.entries()) yield [part, fields[k] ? `${at}/${fields[k]}` : at];
  }
}

/** A boundary's header, measured before the layout leaves room for it. */
interface BoundaryHeader {
  label: TextBlock;
  caption: TextBlock;
  height: number;
}

/** What the stages before the graph layout find out about the view, keyed by item id. */
interface ViewGraph {
  d: ArchitectureDiagram;
  view: View;
  projected: ProjectedView;
  measured: Map<string, MeasuredLeaf>;
  headers: Map<string, BoundaryHeader>;
  parents: Map<string, string | undefined>;
  /** Relationship labels by line id. */
  labels: Map<string, TextBlock>;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The shared state once the graph is laid out: the graph moved under the heading. */
interface PlacedView extends ViewGraph {
  laid: GraphLayout;
  title: TextBlock;
  subtitle: TextBlock | undefined;
  top: number;
  move: (b: Box) => Box;
  pt: (p: Point) => Point;
}

function layoutIn(
  graph: ViewGraph,
  direction: GraphDirection,
  wrap: boolean,
  rough: boolean,
  layoutWith: (input: GraphLayoutInput) => GraphLayout,
): ArchitectureLayout {
  const { d } = graph;
  const laid = layoutWith({
    nodes: graph.nodes,
    edges: graph.edges,
    direction,
    wrap,
    rough,
    together: true,
    // A boundary groups what it holds; a line to elsewhere may cross it (never a box inside it,
    // its title, nor along its border) rather than go round it.
    crossGroups: true,
    spacing: { node: AM.nodeGap, edge: AM.edgeGap, layer: AM.layerGap },
  });
  const st = underHeading(graph, laid);
  const boundaries: BoundaryLayout[] = [];
  const elements: ElementLayout[] = [];
  placeItems(st, st.projected.items, undefined, boundaries, elements);
  const relationships = placeRelationships(st);
  const keys = placeLegends(st, elements);
  const contentW =
    Math.max(laid.width, st.title.box.width, st.subtitle?.box.width ?? 0, keys.width) +
    2 * AM.margin;
  const layout: ArchitectureLayout = {
    meta: d.meta,
    view: st.view,
    ...fitToViewBox(contentW, keys.bottom + AM.margin, d.meta.viewBox),
    title: st.title,
    boundaries,
    elements,
    relationships,
    kinds: keys.kinds,
  };
  if (st.subtitle) layout.subtitle = st.subtitle;
  if (keys.legend) layout.legend = keys.legend;
  return layout;
}

/** The graph to lay out: a node per shown item (boundaries hold theirs), an edge per line. */
function viewGraph(d: ArchitectureDiagram, view: View): ViewGraph {
  const projected = projectView(d, view);
  const g: ViewGraph = {
    d,
    view,
    projected,
    measured: new Map(),
    headers: new Map(),
    parents: new Map(),
    labels: new Map(),
    nodes: [],
    edges: [],
  };
  g.nodes = projected.items.map((i) => graphNode(g, i, undefined));
  g.edges = projected.lines.map((line) => {
    const edge: GraphEdge = { id: line.id, from: line.from, to: line.to };
    const block = edgeText(line.label, line.technology);
    if (block) {
      g.labels.set(line.id, block);
      edge.label = {
        width: block.box.width + 2 * AM.labelPad,
        height: block.box.height + 2 * AM.labelPad,
      };
    }
    return edge;
  });
  return g;
}

/** One item's node: a measured box, or a boundary holding its children under its header. */
function graphNode(g: ViewGraph, item: ViewItem, parent: string | undefined): GraphNode {
  g.parents.set(item.id, parent);
  const hints = item.kind === "leaf" ? item.element.hints : item.boundary.hints;
  let node: GraphNode;
  if (item.kind === "leaf") {
    const m = measureLeaf(item);
    g.measured.set(item.id, m);
    node = { id: item.id, width: m.width, height: m.height };
  } else {
    const b = item.boundary;
    const label = textBlock(b.label, AM.labelSize, "semibold", 260, 2);
    const kindWord = KIND_WORDS[b.kind ?? "system"];
    const caption = textBlock(
      b.technology ? `${kindWord} · ${b.technology}` : kindWord,
      AM.tagSize,
      "regular",
      260,
      1,
    );
    const height = Math.ceil(AM.pad + label.box.height + 2 + caption.box.height + AM.pad);
    g.headers.set(item.id, { label, caption, height });
    const textW = Math.max(label.box.width, caption.box.width);
    node = {
      id: item.id,
      width: Math.ceil(textW + 2 * AM.boundaryPad),
      height,
      children: item.children.map((c) => graphNode(g, c, item.id)),
      padding: {
        top: height + 6,
        left: AM.boundaryPad,
        right: AM.boundaryPad,
        bottom: AM.boundaryPad,
      },
      keepOut: { x: 0, y: 0, width: Math.ceil(textW + 2 * AM.pad), height },
    };
  }
  if (hints?.rank) node.rank = hints.rank;
  if (hints?.order !== undefined) node.order = hints.order;
  return node;
}

/** Near hints pull two boxes of one region together with a line nobody sees. */
function addNearHints(g: ViewGraph, items: ViewItem[]): void {
  for (const item of items) {
    const hints = item.kind === "leaf" ? item.element.hints : item.boundary.hints;
    const near = hints?.near;
    if (near && g.parents.has(near) && g.parents.get(near) === g.parents.get(item.id)) {
      g.edges.push({ id: `near:${item.id}`, from: near, to: item.id, hidden: true });
    }
    if (item.kind === "group") addNearHints(g, item.children);
  }
}

/** The heading over the laid-out graph, and the move that puts the graph under it. */
function underHeading(g: ViewGraph, laid: GraphLayout): PlacedView {
  const { d, view } = g;
  const subText = view.title !== d.meta.title ? view.title : d.meta.subtitle;
  const subParts = [subText, view.caption].filter((p) => p !== undefined && p !== "");
  const { title, subtitle, top } = placeHeading(d.meta.title, subParts.join(" — "), laid.width, AM);
  const shift = translateBy(AM.margin, top);
  return { ...g, laid, title, subtitle, top, move: shift.box, pt: shift.point };
}

/** Boundaries (outer before inner) and elements at their laid-out places. */
function placeItems(
  st: PlacedView,
  items: ViewItem[],
  parent: string | undefined,
  boundaries: BoundaryLayout[],
  elements: ElementLayout[],
): void {
  for (const item of items) {
    const box = st.move(st.laid.nodes.get(item.id) as Box);
    if (item.kind === "group") {
      const h = st.headers.get(item.id) as BoundaryHeader;
      const label = place(h.label, box.x + AM.pad, box.y + AM.pad);
      const caption = place(h.caption, box.x + AM.pad, box.y + AM.pad + h.label.box.height + 2);
      boundaries.push({
        id: item.id,
        kind: item.boundary.kind ?? "system",
        box,
        label,
        caption,
        parent,
      });
      placeItems(st, item.children, item.id, boundaries, elements);
      continue;
    }
    elements.push(placeLeaf(item, st.measured.get(item.id) as MeasuredLeaf, box, parent));
  }
}

/** Each shown line along its routed points, its label where the layout left room. */
function placeRelationships(st: PlacedView): RelationshipLayout[] {
  return st.projected.lines.map((line) => {
    const e = st.laid.edges.get(line.id) as LaidEdge;
    const points = e.points.map(st.pt);
    const out: RelationshipLayout = {
      id: line.id,
      from: line.from,
      to: line.to,
      kind: line.kind,
      role: KIND_ROLE[line.kind],
      count: line.sources.length,
      points,
      arrow: arrowAt(points),
    };
    const block = st.labels.get(line.id);
    if (block && e.label) {
      out.label = labelOn(block, st.move(e.label));
      out.text = [line.label, line.technology].filter(Boolean).join(" ");
    }
    if (st.laid.against.has(line.id)) out.against = true;
    return out;
  });
}

/** The legends under the graph: how wide they are and where the drawing ends below them. */
interface PlacedLegends {
  legend: LegendLayout | undefined;
  kinds: KindLegendItem[];
  width: number;
  bottom: number;
}

/** The legend: categories of the boxes drawn, then the relationship kinds drawn. */
function placeLegends(st: PlacedView, elements: ElementLayout[]): PlacedLegends {
  const { d, laid } = st;
  const x0 = AM.margin;
  const legendWidth = Math.max(laid.width, 560);
  const types: ComponentType[] = elements.map((e) => e.type);
  const plan = planLegend(d.meta, types, []);
  let bottom = st.top + laid.height + 24;
  const legend = plan.place(x0, bottom, legendWidth);
  if (legend) bottom += legend.box.height;
  const kinds: KindLegendItem[] = [];
  const drawnKinds = new Set(st.projected.lines.map((l) => l.kind));
  if ((d.meta.legend?.mode ?? "auto") !== "hidden" && drawnKinds.size > 0) {
    let x = x0;
    const rowY = bottom + (legend ? 4 : 0);
    for (const kind of ["sync", "async", "data"] as const) {
      if (!drawnKinds.has(kind)) continue;
      const block = textBlock(KIND_LEGEND[kind], 11, "regular", 200, 1);
      kinds.push({
        kind,
        swatch: { x: round(x), y: round(rowY + 4), width: 26, height: 14 },
        text: place(block, x + 32, rowY + 11 - block.box.height / 2),
      });
      x += 32 + block.box.width + 22;
    }
    bottom = rowY + 26;
  }
  return { legend, kinds, width: legend ? legendWidth : 0, bottom };
}

function placeLeaf(
  leaf: ViewLeaf,
  m: MeasuredLeaf,
  box: Box,
  parent: string | undefined,
): ElementLayout {
  const e = leaf.element;
  const textX = box.x + 2 * AM.pad + AM.icon;
  const contentH =
    m.label.box.height + (m.sublabel ? 2 + m.sublabel.box.height : 0) + 6 + m.tag.box.height + 4;
  let ty = box.y + (box.height - contentH) / 2;
  const label = place(m.label, textX, ty);
  ty += m.label.box.height;
  const out: ElementLayout = {
    id: leaf.id,
    node: {
      type: leaf.component,
      label: e.label,
      ...(e.description ? { sublabel: e.description } : {}),
      tag: m.tag.lines.join(" "),
      ...(e.brand ? { brand: e.brand } : {}),
    },
    type: leaf.component,
    category: LEGEND_CATEGORY[leaf.component],
    box,
    icon: { x: round(box.x + AM.pad), y: round(box.y + AM.pad), width: AM.icon, height: AM.icon },
    label,
    parent,
  };
  if (m.sublabel) {
    out.sublabel = place(m.sublabel, textX, ty + 2);
    ty += 2 + m.sublabel.box.height;
  }
  const tag = place(m.tag, textX + 6, ty + 6 + 2);
  out.tag = {
    ...tag,
    pill: {
      x: round(textX),
      y: round(ty + 6),
      width: round(m.tag.box.width + 12),
      height: round(m.tag.box.height + 4),
    },
  };
  if (leaf.hidden !== undefined) out.hidden = leaf.hidden;
  if (e.brand) {
    const monogram = brandMonogram(e.brand);
    // Inside the corner (not astride it as in sequence): nothing of a box sticks out of it.
    const r = monogram.length > 2 ? 12 : 10;
    out.brand = {
      circle: { cx: round(box.x + box.width - r - 5), cy: round(box.y + r + 5), r },
      monogram,
      size: monogram.length > 2 ? 8 : 9,
    };
  }
  return out;
}
