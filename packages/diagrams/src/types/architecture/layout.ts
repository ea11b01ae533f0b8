import { fitToViewBox } from "../../core/fit.js";
import { type Box, round } from "../../core/geometry.js";
import {
  type GraphEdge,
  type GraphNode,
  type LaidEdge,
  layoutGraph,
} from "../../core/graph-layout.js";
import { planLegend } from "../../core/legend.js";
import { labelOn, stackedLabel } from "../../core/line-label.js";
import { type ComponentType, type EdgeRole, LEGEND_CATEGORY } from "../../core/model.js";
import type { ArrowLine, NodeBox } from "../../core/svg/boxes.js";
import { brandMonogram } from "../../core/svg/brand.js";
import type { Frame, LegendLayout } from "../../core/svg/document.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { placeHeading } from "../../core/text/heading.js";
import { arrowAt, translateBy } from "../../core/translate.js";
import type { ArchitectureDiagram, Boundary, Element, RelationshipKind, View } from "./model.js";
import { viewsOf } from "./model.js";
import { type ProjectedView, projectView, type ViewItem, type ViewLeaf } from "./view.js";

/** Sizes of an architecture drawing, in diagram units; every preset shares them. */
export const ARCHITECTURE_METRICS = {
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
export const KIND_ROLE: Record<RelationshipKind, EdgeRole> = {
  sync: "main",
  async: "async",
  data: "return",
};

export const KIND_LEGEND: Record<RelationshipKind, string> = {
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
export function pickView(d: ArchitectureDiagram, viewId?: string): View {
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
 * them, relationships may cross their borders and are routed round every box they do not join.
 * Every number is rounded, so the same description gives the same SVG on every machine.
 */
export function layoutArchitecture(d: ArchitectureDiagram, viewId?: string): ArchitectureLayout {
  const view = pickView(d, viewId);
  const projected: ProjectedView = projectView(d, view);
  const graph = buildGraph(projected);
  const laid = layoutGraph({
    nodes: graph.nodes,
    edges: graph.edges,
    direction: d.meta.direction ?? "right",
    spacing: { node: AM.nodeGap, edge: AM.edgeGap, layer: AM.layerGap },
  });
  const subText = view.title !== d.meta.title ? view.title : d.meta.subtitle;
  const subParts = [subText, view.caption].filter((p) => p !== undefined && p !== "");
  const { title, subtitle, top } = placeHeading(d.meta.title, subParts.join(" — "), laid.width, AM);
  const shift = translateBy(AM.margin, top);
  const { boundaries, elements } = placeBoxes(projected.items, graph, laid, shift.box);
  const relationships = placeRelationships(projected, graph.labels, laid, shift);
  const legends = placeLegends(d, projected, elements, top + laid.height + 24, laid.width);
  const contentW =
    Math.max(
      laid.width,
      title.box.width,
      subtitle?.box.width ?? 0,
      legends.legend ? legends.legendWidth : 0,
    ) +
    2 * AM.margin;
  const contentH = legends.bottom + AM.margin;
  const layout: ArchitectureLayout = {
    meta: d.meta,
    view,
    ...fitToViewBox(contentW, contentH, d.meta.viewBox),
    title,
    boundaries,
    elements,
    relationships,
    kinds: legends.kinds,
  };
  if (subtitle) layout.subtitle = subtitle;
  if (legends.legend) layout.legend = legends.legend;
  return layout;
}

interface BoundaryHeader {
  label: TextBlock;
  caption: TextBlock;
  height: number;
}

/** The view as a graph for core/graph-layout, with what was measured to size its boxes. */
interface ViewGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  measured: Map<string, MeasuredLeaf>;
  headers: Map<string, BoundaryHeader>;
  labels: Map<string, TextBlock>;
}

function buildGraph(projected: ProjectedView): ViewGraph {
  const measured = new Map<string, MeasuredLeaf>();
  const headers = new Map<string, BoundaryHeader>();
  const parents = new Map<string, string | undefined>();
  const toNode = (item: ViewItem, parent: string | undefined): GraphNode => {
    parents.set(item.id, parent);
    const hints = item.kind === "leaf" ? item.element.hints : item.boundary.hints;
    let node: GraphNode;
    if (item.kind === "leaf") {
      const m = measureLeaf(item);
      measured.set(item.id, m);
      node = { id: item.id, width: m.width, height: m.height };
    } else {
      const header = measureBoundary(item.boundary);
      headers.set(item.id, header);
      node = boundaryNode(item, header, (c) => toNode(c, item.id));
    }
    if (hints?.rank) node.rank = hints.rank;
    if (hints?.order !== undefined) node.order = hints.order;
    return node;
  };
  const nodes = projected.items.map((i) => toNode(i, undefined));
  const labels = new Map<string, TextBlock>();
  const edges: GraphEdge[] = projected.lines.map((line) => {
    const edge: GraphEdge = { id: line.id, from: line.from, to: line.to };
    const block = edgeText(line.label, line.technology);
    if (block) {
      labels.set(line.id, block);
      edge.label = {
        width: block.box.width + 2 * AM.labelPad,
        height: block.box.height + 2 * AM.labelPad,
      };
    }
    return edge;
  });
  // Near hints pull two boxes of one region together with a line nobody sees.
  const walkHints = (items: ViewItem[]) => {
    for (const item of items) {
      const hints = item.kind === "leaf" ? item.element.hints : item.boundary.hints;
      const near = hints?.near;
      if (near && parents.has(near) && parents.get(near) === parents.get(item.id)) {
        edges.push({ id: `near:${item.id}`, from: near, to: item.id, hidden: true });
      }
      if (item.kind === "group") walkHints(item.children);
    }
  };
  walkHints(projected.items);
  return { nodes, edges, measured, headers, labels };
}

/** A boundary's header: its label over "kind · technology". */
function measureBoundary(b: Extract<ViewItem, { kind: "group" }>["boundary"]): BoundaryHeader {
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
  return { label, caption, height };
}

/** An open boundary as a compound node: its header kept clear, its children inside. */
function boundaryNode(
  item: Extract<ViewItem, { kind: "group" }>,
  { label, caption, height }: BoundaryHeader,
  child: (c: ViewItem) => GraphNode,
): GraphNode {
  const textW = Math.max(label.box.width, caption.box.width);
  return {
    id: item.id,
    width: Math.ceil(textW + 2 * AM.boundaryPad),
    height,
    children: item.children.map(child),
    padding: {
      top: height + 6,
      left: AM.boundaryPad,
      right: AM.boundaryPad,
      bottom: AM.boundaryPad,
    },
    keepOut: { x: 0, y: 0, width: Math.ceil(textW + 2 * AM.pad), height },
  };
}

type Laid = ReturnType<typeof layoutGraph>;

/** Boundaries (with their header texts) and elements at their laid-out boxes. */
function placeBoxes(
  items: ViewItem[],
  graph: ViewGraph,
  laid: Laid,
  move: (b: Box) => Box,
): { boundaries: BoundaryLayout[]; elements: ElementLayout[] } {
  const boundaries: BoundaryLayout[] = [];
  const elements: ElementLayout[] = [];
  const walk = (items: ViewItem[], parent: string | undefined) => {
    for (const item of items) {
      const box = move(laid.nodes.get(item.id) as Box);
      if (item.kind === "group") {
        const h = graph.headers.get(item.id) as BoundaryHeader;
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
        walk(item.children, item.id);
        continue;
      }
      elements.push(placeLeaf(item, graph.measured.get(item.id) as MeasuredLeaf, box, parent));
    }
  };
  walk(items, undefined);
  return { boundaries, elements };
}

function placeRelationships(
  projected: ProjectedView,
  labels: Map<string, TextBlock>,
  laid: Laid,
  shift: ReturnType<typeof translateBy>,
): RelationshipLayout[] {
  return projected.lines.map((line) => {
    const e = laid.edges.get(line.id) as LaidEdge;
    const points = e.points.map(shift.point);
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
    const block = labels.get(line.id);
    if (block && e.label) {
      out.label = labelOn(block, shift.box(e.label));
      out.text = [line.label, line.technology].filter(Boolean).join(" ");
    }
    return out;
  });
}

/** The legend: categories of the boxes drawn, then a row of the relationship kinds drawn. */
function placeLegends(
  d: ArchitectureDiagram,
  projected: ProjectedView,
  elements: ElementLayout[],
  top: number,
  graphW: number,
) {
  const x0 = AM.margin;
  const legendWidth = Math.max(graphW, 560);
  const types: ComponentType[] = elements.map((e) => e.type);
  let bottom = top;
  const legend = planLegend(d.meta, types, []).place(x0, bottom, legendWidth);
  if (legend) bottom += legend.box.height;
  const kinds: KindLegendItem[] = [];
  const drawnKinds = new Set(projected.lines.map((l) => l.kind));
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
  return { legend, legendWidth, kinds, bottom };
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
