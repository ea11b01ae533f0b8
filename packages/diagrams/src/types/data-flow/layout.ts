import { fitToViewBox } from "../../core/fit.js";
import { type Arrow, type Box, round } from "../../core/geometry.js";
import type { GraphDrawing } from "../../core/graph-check.js";
import { chooseDirection, drawingWarnings } from "../../core/graph-direction.js";
import {
  estimateGraphSize,
  finishingLayouter,
  type GraphDirection,
  type GraphEdge,
  type GraphLayout,
  type GraphLayoutInput,
  type GraphNode,
  type GraphShape,
  graphShape,
  type LaidEdge,
} from "../../core/graph-layout.js";
import type { ComponentType, Point } from "../../core/model.js";
import type { Frame } from "../../core/svg/document.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { type DrawnText, textCutWarnings } from "../../core/text/cuts.js";
import { placeHeading } from "../../core/text/heading.js";
import { arrowAt, translateBy } from "../../core/translate.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { boundaryCrossings, type Crossing, crossingPoints } from "./crossings.js";
import {
  type DataFlowDiagram,
  type DataFlowMeta,
  type DrawnClassification,
  type ElementKind,
  flowId,
  parents,
} from "./model.js";

/** Sizes of a data-flow drawing, in diagram units; every preset shares them. */
const DATA_FLOW_METRICS = {
  margin: 28,
  titleSize: 22,
  subtitleSize: 13,
  labelSize: 13,
  sublabelSize: 11,
  boundaryLabelSize: 12,
  edgeLabelSize: 11,
  edgeDetailSize: 10,
  elementMinWidth: 120,
  elementMaxText: 164,
  elementMinHeight: 50,
  padX: 16,
  padY: 10,
  icon: 14,
  boundaryPad: 22,
  boundaryHeaderGap: 10,
  labelMaxWidth: 172,
  labelPad: 4,
  nodeGap: 40,
  layerGap: 72,
  edgeGap: 16,
  legendGap: 28,
  legendRow: 22,
  legendSwatch: 30,
} as const;
const M = DATA_FLOW_METRICS;

export interface ElementLayout {
  id: string;
  kind: ElementKind;
  box: Box;
  parent: string | undefined;
  label: TextBlock;
  sublabel?: TextBlock;
  /** The component type's icon square, top left inside the shape. */
  icon?: { type: ComponentType; box: Box };
}

export interface BoundaryLayout {
  id: string;
  box: Box;
  parent: string | undefined;
  /** How many boundaries enclose it (0: top level); outer ones are drawn first. */
  depth: number;
  label: TextBlock;
  sublabel?: TextBlock;
}

export interface FlowLayout {
  id: string;
  index: number;
  from: string;
  to: string;
  classification: DrawnClassification;
  protocol: string | undefined;
  /** Orthogonal polyline from the source's border to the target's. */
  points: Point[];
  arrow: Arrow;
  /** The data (first line) and "protocol · classification" (second line) on a background. */
  label: { name: TextBlock; detail: TextBlock; background: Box };
  /** Where the line crosses a trust boundary's border, one per boundary crossed. */
  crossings: Crossing[] /** Drawn against the main direction (the layout turned it round to break a cycle). */;
  against?: true;
}

export interface LegendEntry {
  kind: "entity" | "process" | "store" | "boundary" | "crossing" | DrawnClassification;
  swatch: Box;
  text: TextBlock;
}

export interface DataFlowLegend {
  box: Box;
  title: TextBlock;
  entries: LegendEntry[];
}

export interface DataFlowLayout extends Frame {
  meta: DataFlowMeta;
  /** Outer boundaries first (drawing order). */
  boundaries: BoundaryLayout[];
  elements: ElementLayout[];
  flows: FlowLayout[];
  legend?: DataFlowLegend;
  /** What the drawing could not keep of its reading promises (core/graph-check). */
  warnings?: UnlocatedProblem[];
}

interface MeasuredElement {
  width: number;
  height: number;
  label: TextBlock;
  sublabel?: TextBlock;
  iconSpace: number;
}

function measureElement(e: DataFlowDiagram["elements"][number]): MeasuredElement {
  const label = textBlock(e.label, M.labelSize, "semibold", M.elementMaxText, 3);
  const sublabel =
    e.sublabel !== undefined && e.sublabel !== ""
      ? textBlock(e.sublabel, M.sublabelSize, "regular", M.elementMaxText, 3)
      : undefined;
  const iconSpace = e.component_type ? M.icon + 6 : 0;
  const textW = Math.max(label.box.width, sublabel?.box.width ?? 0);
  const textH = label.box.height + (sublabel ? 2 + sublabel.box.height : 0);
  // A process is drawn with round ends: its text keeps clear of them.
  const ends = e.kind === "process" ? 12 : 0;
  const measured: MeasuredElement = {
    width: Math.ceil(Math.max(M.elementMinWidth, textW + 2 * (M.padX + ends + iconSpace))),
    height: Math.ceil(Math.max(M.elementMinHeight, textH + 2 * M.padY)),
    label,
    iconSpace,
  };
  if (sublabel) measured.sublabel = sublabel;
  return measured;
}

interface MeasuredBoundary {
  label: TextBlock;
  sublabel?: TextBlock;
  header: number;
}

function measureBoundary(b: NonNullable<DataFlowDiagram["boundaries"]>[number]): MeasuredBoundary {
  const label = textBlock(b.label, M.boundaryLabelSize, "semibold", 240, 2);
  const sublabel =
    b.sublabel !== undefined && b.sublabel !== ""
      ? textBlock(b.sublabel, M.sublabelSize, "regular", 240, 2)
      : undefined;
  const header = M.padY + label.box.height + (sublabel ? 2 + sublabel.box.height : 0);
  const out: MeasuredBoundary = { label, header: Math.ceil(header + M.boundaryHeaderGap) };
  if (sublabel) out.sublabel = sublabel;
  return out;
}

/** The flow's label: the data it carries, then how it moves and how sensitive it is. */
function flowLabel(f: DataFlowDiagram["flows"][number]): { name: TextBlock; detail: TextBlock } {
  const name = textBlock(f.label, M.edgeLabelSize, "semibold", M.labelMaxWidth, 3);
  const detailText = [f.protocol, f.classification].filter(Boolean).join(" · ");
  const detail = textBlock(detailText, M.edgeDetailSize, "regular", M.labelMaxWidth, 2);
  return { name, detail };
}

/**
 * Lays out a validated data-flow description with the layered graph layout (core/graph-layout):
 * trust boundaries are compound nodes holding exactly what they enclose, flows are routed
 * between them with their labels measured here so the layout keeps them clear. Every number
 * is rounded, so the same description gives the same SVG on every machine.
 */
export function layoutDataFlow(diagram: DataFlowDiagram): DataFlowLayout {
  // Flows read left to right unless that makes the drawing too wide for a page.
  const drawing = (l: DataFlowLayout, checkAspect = false): GraphDrawing => ({
    width: l.width,
    height: l.height,
    edges: l.flows.map((f) => ({ id: f.id, points: f.points })),
    checkAspect,
  });
  // A left-to-right try is first laid out roughly (sizes only); if kept, it finishes that layout.
  // Every try measures the same text: once is enough.
  const layoutWith = finishingLayouter();
  const measured = measureDiagram(diagram);
  const layout = chooseDirection(
    diagram.meta.direction,
    "right",
    (d, wrap, rough) => layoutIn(measured, d, wrap, rough, layoutWith),
    drawing,
    (d) => estimateIn(measured, d),
  );
  const index = new Map(diagram.flows.map((f, i) => [flowId(f, i), i]));
  const warnings = drawingWarnings(drawing(layout, diagram.meta.direction === undefined), (id) =>
    id === undefined ? "/meta" : `/flows/${index.get(id) ?? 0}`,
  );
  warnings.push(...textCutWarnings(drawnText(diagram, measured, layout)));
  if (warnings.length > 0) layout.warnings = warnings;
  return layout;
}

/** Every text the drawing wraps, with where the description holds it. */
function* drawnText(
  diagram: DataFlowDiagram,
  g: FlowGraph,
  layout: DataFlowLayout,
): Iterable<DrawnText> {
  yield [layout.title, "/meta/title"];
  yield [layout.subtitle, "/meta/subtitle"];
  for (const [i, e] of diagram.elements.entries()) {
    const m = g.elements.get(e.id);
    yield [m?.label, `/elements/${i}/label`];
    yield [m?.sublabel, `/elements/${i}/sublabel`];
  }
  for (const [i, b] of (diagram.boundaries ?? []).entries()) {
    const m = g.headers.get(b.id);
    yield [m?.label, `/boundaries/${i}/label`];
    yield [m?.sublabel, `/boundaries/${i}/sublabel`];
  }
  for (const [i, f] of diagram.flows.entries()) {
    const m = g.labels.get(flowId(f, i));
    yield [m?.name, `/flows/${i}/label`];
    const detail = f.classification ? "classification" : "protocol";
    yield [
      m?.detail,
      `/flows/${i}/${detail}`,
      f.protocol && f.classification ? "protocol and classification" : undefined,
    ];
  }
}

/** What the stages share: the description measured, then laid out under its heading. */
interface FlowGraph {
  diagram: DataFlowDiagram;
  boundaries: NonNullable<DataFlowDiagram["boundaries"]>;
  parentOf: Map<string, string | undefined>;
  elements: Map<string, MeasuredElement>;
  headers: Map<string, MeasuredBoundary>;
  /** Flow labels by flow id. */
  labels: Map<string, ReturnType<typeof flowLabel>>;
  /** The flows as graph edges, and the graph's structure: the same in every direction. */
  edges: GraphEdge[];
  shape: GraphShape;
  /** The graph's nodes for flows across the page and for flows down it, built on first use. */
  nodes: Map<boolean, GraphNode[]>;
  /** The legend's words, measured once: the estimate and the layout both plan the legend. */
  legendWords: (kind: LegendEntry["kind"] | "title") => TextBlock;
}

/** The description measured, before it is turned into a graph. */
type MeasuredGraph = Omit<FlowGraph, "edges" | "shape" | "nodes" | "legendWords">;

interface PlacedGraph extends FlowGraph {
  laid: GraphLayout;
  title: TextBlock;
  subtitle: TextBlock | undefined;
  top: number;
  move: (b: Box) => Box;
  pt: (p: Point) => Point;
}

function layoutIn(
  g: FlowGraph,
  direction: GraphDirection,
  wrap: boolean,
  rough: boolean,
  layoutWith: (input: GraphLayoutInput) => GraphLayout,
): DataFlowLayout {
  const { diagram } = g;
  const laid = layoutWith(graphInput(g, direction, wrap, rough));
  const st = underHeading(g, laid);
  const boundaries = placeBoundaries(st);
  const elements = diagram.elements.map((e) => placeElement(st, e));
  const boxes = new Map<string, Box>(boundaries.map((b) => [b.id, b.box]));
  const flows = diagram.flows.map((f, index) => placeFlow(st, f, index, boxes));
  const crossing = flows.some((f) => f.crossings.length > 0);
  const page = pageAround(g, laid, st, crossing);
  const layout: DataFlowLayout = {
    meta: diagram.meta,
    ...page.frame,
    title: st.title,
    boundaries,
    elements,
    flows,
  };
  if (st.subtitle) layout.subtitle = st.subtitle;
  if (page.legend) layout.legend = page.legend;
  return layout;
}

/** The description as a layered graph in one direction. */
function graphInput(
  g: FlowGraph,
  direction: GraphDirection,
  wrap: boolean,
  rough: boolean,
): GraphLayoutInput {
  const across = direction === "right" || direction === "left";
  let nodes = g.nodes.get(across);
  if (!nodes) {
    nodes = childNodes(g, undefined, across);
    g.nodes.set(across, nodes);
  }
  return {
    nodes,
    edges: g.edges,
    direction,
    wrap,
    rough,
    spacing: { node: M.nodeGap, edge: M.edgeGap, layer: M.layerGap },
    shape: g.shape,
  };
}

/** The page round a laid-out graph: the heading above it, the legend below, margins round. */
function pageAround(
  g: FlowGraph,
  graph: { width: number; height: number },
  heading: { title: TextBlock; subtitle: TextBlock | undefined; top: number },
  crossing: boolean,
): { frame: ReturnType<typeof fitToViewBox>; legend: DataFlowLegend | undefined } {
  const { diagram } = g;
  const graphBottom = heading.top + graph.height;
  const legend =
    diagram.meta.legend?.mode === "hidden"
      ? undefined
      : planLegend(
          g.legendWords,
          legendKinds(diagram, crossing),
          M.margin,
          graphBottom + M.legendGap,
        );
  const contentW =
    Math.max(
      graph.width,
      heading.title.box.width,
      heading.subtitle?.box.width ?? 0,
      legend?.box.width ?? 0,
    ) +
    2 * M.margin;
  const contentH = (legend ? legend.box.y + legend.box.height : graphBottom) + M.margin;
  return { frame: fitToViewBox(contentW, contentH, diagram.meta.viewBox), legend };
}

/**
 * The page's size in one direction, from the graph's layers alone (core/graph-layout's
 * estimate): whether a flow crosses a boundary's border is read from the nesting, not drawn.
 */
function estimateIn(g: FlowGraph, direction: GraphDirection): { width: number; height: number } {
  const graph = estimateGraphSize(graphInput(g, direction, false, true));
  const { title, subtitle, top } = placeHeading(
    g.diagram.meta.title,
    g.diagram.meta.subtitle,
    graph.width,
    M,
  );
  const crossing = g.diagram.flows.some((f) => {
    const c = boundaryCrossings(f.from, f.to, g.parentOf);
    return c.out.length + c.into.length > 0;
  });
  return pageAround(g, graph, { title, subtitle, top }, crossing).frame;
}

/** Every element, boundary header and flow label measured before the layout sizes round them. */
function measureDiagram(diagram: DataFlowDiagram): FlowGraph {
  const boundaries = diagram.boundaries ?? [];
  const measured = {
    diagram,
    boundaries,
    parentOf: parents(diagram),
    elements: new Map(diagram.elements.map((e) => [e.id, measureElement(e)])),
    headers: new Map(boundaries.map((b) => [b.id, measureBoundary(b)])),
    labels: new Map(diagram.flows.map((f, index) => [flowId(f, index), flowLabel(f)])),
  };
  const edges = flowEdges(measured);
  const across = childNodes(measured, undefined, true);
  const shape = graphShape(across, edges);
  return {
    ...measured,
    edges,
    shape,
    nodes: new Map([[true, across]]),
    legendWords: legendWords(),
  };
}

/** The nodes inside boundary `id` (top level: undefined), elements first, then boundaries. */
function childNodes(g: MeasuredGraph, id: string | undefined, across: boolean): GraphNode[] {
  return [
    ...g.diagram.elements
      .filter((e) => e.boundary === id)
      .map((e) => {
        const m = g.elements.get(e.id) as MeasuredElement;
        return { id: e.id, width: m.width, height: m.height };
      }),
    ...g.boundaries.filter((b) => b.boundary === id).map((b) => boundaryNode(g, b.id, across)),
  ];
}

/** A boundary as a compound node: its children, with room kept for its label. */
function boundaryNode(g: MeasuredGraph, id: string, across: boolean): GraphNode {
  const m = g.headers.get(id) as MeasuredBoundary;
  const width = Math.ceil(Math.max(m.label.box.width, m.sublabel?.box.width ?? 0) + 2 * M.padX);
  // Flows enter a boundary across the layers: from the left when they run across the
  // page, from the top when they run down it. So the label sits above the contents in
  // the first case and beside them in the second, where no flow comes in over it.
  const padding = across
    ? { top: m.header, left: M.boundaryPad, right: M.boundaryPad, bottom: M.boundaryPad }
    : { top: M.boundaryPad, left: width, right: M.boundaryPad, bottom: M.boundaryPad };
  const textH = m.header - M.boundaryHeaderGap - M.padY;
  return {
    id,
    width,
    height: m.header + M.boundaryPad,
    children: childNodes(g, id, across),
    padding,
    // Where the label is written: no flow runs over it, no flow label sits on it.
    keepOut: {
      x: M.padX - 4,
      y: M.padY - 4,
      width: width - 2 * M.padX + 8,
      height: textH + 8,
    },
  };
}

/** An edge per flow, with room for its two-line label. */
function flowEdges(g: MeasuredGraph): GraphEdge[] {
  return g.diagram.flows.map((f, index) => {
    const id = flowId(f, index);
    const block = g.labels.get(id) as ReturnType<typeof flowLabel>;
    return {
      id,
      from: f.from,
      to: f.to,
      label: {
        width: Math.ceil(Math.max(block.name.box.width, block.detail.box.width) + 2 * M.labelPad),
        height: Math.ceil(block.name.box.height + block.detail.box.height + 2 * M.labelPad),
      },
    };
  });
}

/** The heading over the laid-out graph, and the move that puts the graph under it. */
function underHeading(g: FlowGraph, laid: GraphLayout): PlacedGraph {
  const { title, subtitle, top } = placeHeading(
    g.diagram.meta.title,
    g.diagram.meta.subtitle,
    laid.width,
    M,
  );
  const { box: move, point: pt } = translateBy(M.margin, top);
  return { ...g, laid, title, subtitle, top, move, pt };
}

/** Boundaries at their places, outer ones first (drawing order). */
function placeBoundaries(st: PlacedGraph): BoundaryLayout[] {
  const depthOf = (id: string) => {
    let d = 0;
    for (let at = st.parentOf.get(id); at !== undefined && d < 64; at = st.parentOf.get(at)) d++;
    return d;
  };
  return st.boundaries
    .map((b) => {
      const m = st.headers.get(b.id) as MeasuredBoundary;
      const box = st.move(st.laid.nodes.get(b.id) as Box);
      const out: BoundaryLayout = {
        id: b.id,
        box,
        parent: b.boundary,
        depth: depthOf(b.id),
        label: place(m.label, box.x + M.padX, box.y + M.padY),
      };
      if (m.sublabel) {
        out.sublabel = place(m.sublabel, box.x + M.padX, box.y + M.padY + m.label.box.height + 2);
      }
      return out;
    })
    .sort((a, b) => a.depth - b.depth);
}

/** An element at its place, its text centred, its component icon top left. */
function placeElement(st: PlacedGraph, e: DataFlowDiagram["elements"][number]): ElementLayout {
  const m = st.elements.get(e.id) as MeasuredElement;
  const box = st.move(st.laid.nodes.get(e.id) as Box);
  const textH = m.label.box.height + (m.sublabel ? 2 + m.sublabel.box.height : 0);
  const ty = box.y + (box.height - textH) / 2;
  const centre = (t: TextBlock) => round(box.x + (box.width - t.box.width) / 2);
  const out: ElementLayout = {
    id: e.id,
    kind: e.kind,
    box,
    parent: e.boundary,
    label: place(m.label, centre(m.label), ty),
  };
  if (m.sublabel) out.sublabel = place(m.sublabel, centre(m.sublabel), ty + m.label.box.height + 2);
  if (e.component_type) {
    const inset = e.kind === "process" ? 14 : 8;
    out.icon = {
      type: e.component_type,
      box: { x: box.x + inset, y: box.y + 8, width: M.icon, height: M.icon },
    };
  }
  return out;
}

/** A flow along its routed points, its label centred where the layout left room. */
function placeFlow(
  st: PlacedGraph,
  f: DataFlowDiagram["flows"][number],
  index: number,
  boxes: Map<string, Box>,
): FlowLayout {
  const id = flowId(f, index);
  const e = st.laid.edges.get(id) as LaidEdge;
  const points = e.points.map(st.pt);
  const block = st.labels.get(id) as ReturnType<typeof flowLabel>;
  const bg = st.move(e.label as Box);
  const textH = block.name.box.height + block.detail.box.height;
  const top = bg.y + (bg.height - textH) / 2;
  const centre = (t: TextBlock) => round(bg.x + (bg.width - t.box.width) / 2);
  const crossed = boundaryCrossings(f.from, f.to, st.parentOf);
  return {
    ...(st.laid.against.has(id) ? { against: true as const } : {}),
    id,
    index,
    from: f.from,
    to: f.to,
    classification: f.classification ?? "unclassified",
    protocol: f.protocol,
    points,
    arrow: arrowAt(points),
    label: {
      name: place(block.name, centre(block.name), round(top)),
      detail: place(block.detail, centre(block.detail), round(top + block.name.box.height)),
      background: bg,
    },
    crossings: crossingPoints(points, crossed, boxes),
  };
}

const LEGEND_WORDS: Record<LegendEntry["kind"], string> = {
  entity: "External entity",
  process: "Process",
  store: "Data store",
  boundary: "Trust boundary",
  crossing: "Flow crossing a trust boundary",
  public: "Public data",
  internal: "Internal data",
  confidential: "Confidential data",
  personal: "Personal data",
  unclassified: "Unclassified data",
};

/** What the legend explains: the element kinds, boundaries, crossings and classifications used. */
function legendKinds(diagram: DataFlowDiagram, crossing: boolean): LegendEntry["kind"][] {
  const kinds: LegendEntry["kind"][] = [];
  for (const k of ["entity", "process", "store"] as const) {
    if (diagram.elements.some((e) => e.kind === k)) kinds.push(k);
  }
  if ((diagram.boundaries ?? []).length > 0) kinds.push("boundary");
  if (crossing) kinds.push("crossing");
  for (const c of ["public", "internal", "confidential", "personal", "unclassified"] as const) {
    if (diagram.flows.some((f) => (f.classification ?? "unclassified") === c)) kinds.push(c);
  }
  return kinds;
}

/** The legend's title and entry words, each measured on first use. */
function legendWords(): (kind: LegendEntry["kind"] | "title") => TextBlock {
  const known = new Map<LegendEntry["kind"] | "title", TextBlock>();
  return (kind) => {
    let block = known.get(kind);
    if (!block) {
      block =
        kind === "title"
          ? textBlock("Legend", M.sublabelSize, "semibold", 200, 1)
          : textBlock(LEGEND_WORDS[kind], M.sublabelSize, "regular", 240, 1);
      known.set(kind, block);
    }
    return block;
  };
}

/** The key to what is drawn, in two columns: shapes on the left, flows on the right. */
function planLegend(
  words: (kind: LegendEntry["kind"] | "title") => TextBlock,
  kinds: LegendEntry["kind"][],
  x: number,
  top: number,
): DataFlowLegend | undefined {
  if (kinds.length === 0) return undefined;
  const title = place(words("title"), x, top);
  // Two columns of rows under the title: shapes on the left, flows on the right.
  const shapes = kinds.filter((k) => ["entity", "process", "store", "boundary"].includes(k));
  const lines = kinds.filter((k) => !shapes.includes(k));
  const entries: LegendEntry[] = [];
  let width = title.box.width;
  const column = (list: LegendEntry["kind"][], x0: number) => {
    let colW = 0;
    list.forEach((kind, i) => {
      const rowY = top + title.box.height + 8 + i * M.legendRow;
      const swatch = { x: x0, y: rowY + 2, width: M.legendSwatch, height: M.legendRow - 6 };
      const text = place(
        words(kind),
        x0 + M.legendSwatch + 8,
        rowY + 2 + (M.legendRow - 6 - 14) / 2,
      );
      colW = Math.max(colW, M.legendSwatch + 8 + text.box.width);
      entries.push({ kind, swatch, text });
    });
    return colW;
  };
  const leftW = column(shapes, x);
  const rightX = x + (leftW > 0 ? leftW + 36 : 0);
  const rightW = column(lines, rightX);
  width = Math.max(width, rightX - x + rightW);
  const rows = Math.max(shapes.length, lines.length);
  const height = title.box.height + 8 + rows * M.legendRow;
  return { box: { x, y: top, width: round(width), height: round(height) }, title, entries };
}
