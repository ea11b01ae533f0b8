import { round } from "../../../core/geometry.js";
import { type LegendPlan, planLegend } from "../../../core/legend.js";
import type { UnlocatedProblem } from "../../../core/validate/schema-problems.js";
import type { DiagramNode, Group, Phase, WorkflowDiagram } from "../model.js";
import { LEGEND_CATEGORY } from "../model.js";
import {
  edgeRole,
  type LabelBlocks,
  mainPairs,
  type Routed,
  type RouteMode,
  routeEdges,
} from "./edges.js";
import { cutMessage, isCut, METRICS as M, place } from "./metrics.js";
import type { Channels, Room } from "./route.js";
import { gridLines, stretchMap } from "./stretch.js";
import {
  BAND_INSET,
  bandLabelWrap,
  EDGE_LABEL,
  LANE_LABEL,
  nodeWraps,
  subtitleWrap,
  titleWrap,
  wrap,
} from "./texts.js";
import type { BandLayout, Box, LaneLayout, Layout, NodeLayout, TextBlock } from "./types.js";

/**
 * One layout pass of the workflow grid, as a list of named stages over what the earlier ones
 * found (see `layOutPass`): size the grid, fit it to the requested size, place the header and
 * grid lines, the lanes, bands and nodes, find the channels' room, check text for cuts, route
 * the edges, assemble. The entry points say what the pass is for: `trialPass` (stop once a
 * channel is short of tracks), `finalPass`, `warningsPass` (only what can warn).
 */

interface NodeContent {
  width: number;
  height: number;
  withIcon: boolean;
  label: TextBlock;
  sublabel?: TextBlock;
  tag?: TextBlock;
}

function measureNode(node: DiagramNode): NodeContent {
  const wraps = nodeWraps(node);
  const { width, withIcon } = wraps;
  const label = wrap(node.label, wraps.label);
  const sublabel =
    node.sublabel !== undefined && node.sublabel !== ""
      ? wrap(node.sublabel, wraps.sublabel)
      : undefined;
  const tag = node.tag !== undefined && node.tag !== "" ? wrap(node.tag, wraps.tag) : undefined;
  let content = label.box.height;
  if (sublabel) content += 2 + sublabel.box.height;
  if (tag) content += 6 + tag.box.height + 4;
  const height = node.height ?? Math.max(M.nodeMinHeight, content + 2 * M.nodePad + 4);
  return { width, height, withIcon, label, sublabel, tag };
}

/** Text measured once per layout, however many passes it takes. */
export interface Measured {
  nodes: NodeContent[];
  labels: LabelBlocks;
}

export const measure = (diagram: WorkflowDiagram): Measured => ({
  nodes: diagram.nodes.map(measureNode),
  labels: new Map(),
});

/** Extra room at each column boundary (0..columns) and in each lane gap (0..lanes), in units. */
export interface Growth {
  cols: number[];
  gaps: number[];
  /** Per lane gap: true once it grew for a label (see Channels.spreadYs). */
  spread: boolean[];
  /** Room added right of the `outside-right` channels, for labels beside them. */
  outside: number;
}

/** One layout of the grid with the edges routed, before their labels are placed. */
export interface Pass {
  layout: Layout;
  routed: Routed;
  bounds: Box;
  bands: BandLayout[];
  nodes: NodeLayout[];
  channels: Channels;
  /** The growth this pass was laid out with. */
  growth: Growth;
}

/** A pass that stops at the count of missing tracks when a channel lacks some. */
export const trialPass = (d: WorkflowDiagram, measured: Measured, growth?: Growth): Pass =>
  layOutPass(d, measured, growth, "trial");

/** A pass that routes and separates every edge, whatever it lacks. */
export const finalPass = (d: WorkflowDiagram, measured: Measured, growth?: Growth): Pass =>
  layOutPass(d, measured, growth, "final");

/** A pass that routes only the edges that can warn (see routeEdges): for `layoutWarnings`. */
export const warningsPass = (d: WorkflowDiagram, measured: Measured): Pass =>
  layOutPass(d, measured, undefined, "warnings");

function layOutPass(
  diagram: WorkflowDiagram,
  measured: Measured,
  growth: Growth | undefined,
  mode: RouteMode,
): Pass {
  const grid = sizeGrid(diagram, measured, growth);
  const frame = fitFrame(diagram, grid);
  const at = placeGrid(grid, frame);
  const lanes = placeLanes(diagram, grid, at);
  const phases = placePhases(grid, at);
  const groups = placeGroups(grid, at);
  const nodes = placeNodes(diagram, grid, at);
  const content = contentSizes(diagram, grid);
  const channels = trackChannels(grid, at, content, growth);
  const warnings = textCutWarnings(diagram, grid, at, phases, groups);
  const warn = (rule: string, path: string, message: string) => {
    warnings.push({ rule, path, message });
  };
  const toDrawing = naturalToDrawing(grid, frame, at, content);
  const routed = routeEdges(
    { ...diagram, edges: diagram.edges.map(toDrawing) },
    nodes,
    grid.laneIndex,
    channels,
    warn,
    mode,
    measured.labels,
  );
  const layout = assemble(grid, frame, at, { lanes, phases, groups, nodes }, routed, warnings);
  return {
    layout,
    routed,
    bounds: { x: 0, y: 0, width: frame.contentW, height: frame.contentH },
    bands: [...phases, ...groups],
    nodes,
    channels,
    growth: {
      cols: grid.colGap,
      gaps: grid.laneGap.map((g) => g - M.laneGap),
      spread: growth?.spread ?? [],
      outside: growth?.outside ?? 0,
    },
  };
}

/** The grid's columns, lanes and gaps, sized for what they hold. */
interface Grid {
  laneIndex: Map<string, number>;
  phases: Phase[];
  groups: Group[];
  nCols: number;
  contents: NodeContent[];
  colW: number[];
  laneH: number[];
  lanePadTop: number[];
  laneLabels: TextBlock[];
  /** The width of the `outside-right` channels before and after growth for labels. */
  outsideBase: number;
  outsideWidth: number;
  colGap: number[];
  laneGap: number[];
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const bodyWidthOf = (g: Grid) =>
  M.laneHeaderWidth + 2 * M.columnEdgePad + sum(g.colW) + sum(g.colGap);
const lanesHeight = (g: Grid) => sum(g.laneH) + sum(g.laneGap);

/** Column widths and lane heights from the nodes they hold; gaps from the growth asked for. */
function sizeGrid(diagram: WorkflowDiagram, measured: Measured, growth?: Growth): Grid {
  const laneIndex = new Map(diagram.lanes.map((l, i) => [l.id, i]));
  const phases = diagram.phases ?? [];
  const groups = diagram.groups ?? [];
  const usedCols = Math.max(
    0,
    ...diagram.nodes.map((n) => n.col),
    ...phases.map((p) => p.toCol),
    ...groups.map((g) => g.toCol),
  );
  const nCols = usedCols + 1;
  const contents = measured.nodes;
  const colW = Array.from({ length: nCols }, () => M.columnMinWidth as number);
  const laneH = diagram.lanes.map(() => M.laneMinHeight as number);
  const lanePadTop = diagram.lanes.map((l) =>
    groups.some((g) => g.lane === l.id) ? M.laneGroupPad : M.lanePad,
  );
  diagram.nodes.forEach((n, i) => {
    const c = contents[i] as NodeContent;
    colW[n.col] = Math.max(colW[n.col] as number, c.width + 2 * M.columnPad);
    const li = laneIndex.get(n.lane) ?? 0;
    const need = (lanePadTop[li] as number) + M.lanePad + c.height + 2 * Math.abs(n.yOffset ?? 0);
    laneH[li] = Math.max(laneH[li] as number, need);
  });
  widenGuttersForLabels(diagram, contents, colW);
  const laneLabels = diagram.lanes.map((l) => wrap(l.label, LANE_LABEL));
  laneLabels.forEach((b, i) => {
    laneH[i] = Math.max(laneH[i] as number, b.box.height + 24);
  });
  const outsideCount = diagram.edges.filter(
    (e) => e.route === "outside-right" && e.channelX === undefined,
  ).length;
  const outsideBase = outsideCount > 0 ? M.outsideChannel + 10 * (outsideCount - 1) : 0;
  const outsideWidth = outsideCount > 0 ? outsideBase + (growth?.outside ?? 0) : 0;
  const colGap = Array.from({ length: nCols + 1 }, (_, c) => growth?.cols[c] ?? 0);
  const laneGap = Array.from(
    { length: laneH.length + 1 },
    (_, l) => M.laneGap + (growth?.gaps[l] ?? 0),
  );
  return {
    laneIndex,
    phases,
    groups,
    nCols,
    contents,
    colW,
    laneH,
    lanePadTop,
    laneLabels,
    outsideBase,
    outsideWidth,
    colGap,
    laneGap,
  };
}

/** Room kept between a label beside an edge and the nodes at either end of the gutter. */
const LABEL_ROOM = 12;

/**
 * Widens the gutter between two neighbouring columns until the label of every edge crossing it
 * from one to the other fits beside that edge without touching a node.
 */
function widenGuttersForLabels(
  diagram: WorkflowDiagram,
  contents: NodeContent[],
  colW: number[],
): void {
  const nodeW = colW.map(() => 0);
  const colOf = new Map<string, number>();
  diagram.nodes.forEach((n, i) => {
    nodeW[n.col] = Math.max(nodeW[n.col] as number, (contents[i] as NodeContent).width);
    colOf.set(n.id, n.col);
  });
  const need = colW.map(() => 0);
  for (const e of diagram.edges) {
    if (e.label === undefined || e.label === "" || e.via || e.labelAt) continue;
    const from = colOf.get(e.from);
    const to = colOf.get(e.to);
    if (from === undefined || to === undefined || Math.abs(from - to) !== 1) continue;
    const block = wrap(e.label, EDGE_LABEL);
    const c = Math.min(from, to);
    need[c] = Math.max(need[c] as number, block.box.width + 8 + 2 * LABEL_ROOM);
  }
  for (let c = 0; c + 1 < colW.length; c++) {
    const gutter =
      ((colW[c] as number) - (nodeW[c] as number)) / 2 +
      ((colW[c + 1] as number) - (nodeW[c + 1] as number)) / 2;
    const extra = (need[c] as number) - gutter;
    if (extra <= 0) continue;
    // Both columns grow, so their nodes stay centred.
    colW[c] = (colW[c] as number) + extra;
    colW[c + 1] = (colW[c + 1] as number) + extra;
  }
}

/** The title block, the legend, and the drawing's size once filled to a requested size. */
interface Frame {
  title: TextBlock;
  subtitle: TextBlock | undefined;
  legendPlan: LegendPlan;
  /** The grid before any filling: the description's coordinates are in these units. */
  natural: { colW: number[]; laneH: number[]; header: number };
  width: number;
  height: number;
  scale: number;
  offset: { x: number; y: number };
  contentW: number;
  contentH: number;
}

const headerHeight = (title: TextBlock, subtitle: TextBlock | undefined, grid: Grid) =>
  title.box.height +
  (subtitle ? 4 + subtitle.box.height : 0) +
  16 +
  (grid.phases.length ? M.phaseHeaderHeight : 0);

/**
 * Wraps the title, sizes the legend and fills a requested (or the minimum) size by widening
 * columns and heightening lanes; the scale and offset fit the content into meta.viewBox.
 */
function fitFrame(diagram: WorkflowDiagram, grid: Grid): Frame {
  const { colW, laneH, nCols, outsideWidth, outsideBase } = grid;
  const naturalBody = M.laneHeaderWidth + 2 * M.columnEdgePad + sum(colW);
  let title = wrap(diagram.meta.title, titleWrap(naturalBody));
  const subtitleText = diagram.meta.subtitle;
  let subtitle =
    subtitleText !== undefined && subtitleText !== ""
      ? wrap(subtitleText, subtitleWrap(naturalBody))
      : undefined;
  const main = mainPairs(diagram);
  const legendPlan = planLegend(
    diagram.meta,
    diagram.nodes.map((n) => n.type),
    diagram.edges.map((e) => edgeRole(e, main)),
  );
  const legendHeightOf = (width: number) => {
    const h = legendPlan.height(width);
    return h === 0 ? 0 : M.legendGap + h;
  };
  const requested = diagram.meta.viewBox;
  const targetW = Math.max(requested?.[0] ?? M.minWidth, M.minWidth);
  const targetH = Math.max(requested?.[1] ?? M.minHeight, M.minHeight);
  // Gutters and gaps grown for tracks are not part of the natural grid either.
  const natural = {
    colW: [...colW],
    laneH: [...laneH],
    header: headerHeight(title, subtitle, grid),
  };
  const grownWidth = 2 * M.margin + bodyWidthOf(grid) + outsideWidth;
  if (targetW > grownWidth) {
    const extra = (targetW - grownWidth) / nCols;
    for (let c = 0; c < nCols; c++) colW[c] = (colW[c] as number) + extra;
  }
  // The title takes the width of the natural grid filled to the requested size: gutters grown
  // for tracks never rewrap it, so its warnings do not depend on the routes.
  const titleWidth = Math.max(naturalBody, targetW - 2 * M.margin - outsideBase);
  if (titleWidth > naturalBody) {
    title = wrap(diagram.meta.title, titleWrap(titleWidth));
    if (subtitle && subtitleText) subtitle = wrap(subtitleText, subtitleWrap(titleWidth));
  }
  const header = () => headerHeight(title, subtitle, grid);
  const filledHeight =
    2 * M.margin + header() + lanesHeight(grid) + legendHeightOf(bodyWidthOf(grid));
  if (targetH > filledHeight) {
    const extra = (targetH - filledHeight) / laneH.length;
    for (let l = 0; l < laneH.length; l++) laneH[l] = (laneH[l] as number) + extra;
  }
  const contentW = 2 * M.margin + bodyWidthOf(grid) + outsideWidth;
  const contentH = 2 * M.margin + header() + lanesHeight(grid) + legendHeightOf(bodyWidthOf(grid));
  const width = requested ? requested[0] : Math.max(contentW, M.minWidth);
  const height = requested ? requested[1] : Math.max(contentH, M.minHeight);
  const scale = Math.min(1, width / contentW, height / contentH);
  const offset = {
    x: round((width - contentW * scale) / 2),
    y: round((height - contentH * scale) / 2),
  };
  return { title, subtitle, legendPlan, natural, width, height, scale, offset, contentW, contentH };
}

/** Where the header's blocks and the grid's lines are. */
interface Placed {
  titleBlock: TextBlock;
  subtitleBlock: TextBlock | undefined;
  phaseHeaderY: number;
  /** colX[c]: the middle of the gutter before column c (the last after the last column). */
  colX: number[];
  cellX: (c: number) => number;
  laneY: number[];
  gapY: number[];
  bodyWidth: number;
  bodyBottom: number;
  body: Box;
}

function placeGrid(grid: Grid, frame: Frame): Placed {
  const { colGap, colW, laneH, laneGap, nCols } = grid;
  const x0 = M.margin;
  let y = M.margin;
  const titleBlock = place(frame.title, x0, y);
  y += frame.title.box.height;
  let subtitleBlock: TextBlock | undefined;
  if (frame.subtitle) {
    subtitleBlock = place(frame.subtitle, x0, y + 4);
    y += 4 + frame.subtitle.box.height;
  }
  y += 16;
  const phaseHeaderY = y;
  if (grid.phases.length) y += M.phaseHeaderHeight;
  const bodyTop = y;
  const colX: number[] = [];
  let cx = x0 + M.laneHeaderWidth + M.columnEdgePad + (colGap[0] as number) / 2;
  for (let c = 0; c <= nCols; c++) {
    colX.push(round(cx));
    cx += (colGap[c] as number) / 2 + (colW[c] ?? 0) + (colGap[c + 1] ?? 0) / 2;
  }
  const cellX = (c: number) => (colX[c] as number) + (colGap[c] as number) / 2;
  const bodyWidth = bodyWidthOf(grid);
  const laneY: number[] = [];
  const gapY: number[] = [];
  let ly = bodyTop;
  for (let l = 0; l < laneH.length; l++) {
    gapY.push(round(ly + (laneGap[l] as number) / 2));
    ly += laneGap[l] as number;
    laneY.push(round(ly));
    ly += laneH[l] as number;
  }
  const lastGap = laneGap[laneH.length] as number;
  gapY.push(round(ly + lastGap / 2));
  const bodyBottom = ly + lastGap;
  const body: Box = {
    x: x0,
    y: bodyTop,
    width: round(bodyWidth),
    height: round(bodyBottom - bodyTop),
  };
  return {
    titleBlock,
    subtitleBlock,
    phaseHeaderY,
    colX,
    cellX,
    laneY,
    gapY,
    bodyWidth,
    bodyBottom,
    body,
  };
}

function placeLanes(diagram: WorkflowDiagram, grid: Grid, at: Placed): LaneLayout[] {
  const x0 = M.margin;
  return diagram.lanes.map((lane, i) => {
    const box = {
      x: x0,
      y: at.laneY[i] as number,
      width: round(at.bodyWidth),
      height: round(grid.laneH[i] as number),
    };
    const label = grid.laneLabels[i] as TextBlock;
    return {
      id: lane.id,
      index: i,
      exception: lane.variant === "exception",
      box,
      header: { x: x0, y: box.y, width: M.laneHeaderWidth, height: box.height },
      label: place(label, x0 + 12, box.y + (box.height - label.box.height) / 2),
    };
  });
}

const bandLabel = (text: string, width: number) => wrap(text, bandLabelWrap(width));

function placePhases(grid: Grid, at: Placed): BandLayout[] {
  const { colX, phaseHeaderY, bodyBottom } = at;
  return grid.phases.map((p) => {
    const bx = (colX[p.fromCol] as number) + BAND_INSET.phase;
    const bw = (colX[p.toCol + 1] as number) - BAND_INSET.phase - bx;
    const label = bandLabel(p.label, bw);
    return {
      id: p.id,
      variant: p.variant ?? "default",
      box: {
        x: round(bx),
        y: round(phaseHeaderY),
        width: round(bw),
        height: round(bodyBottom - phaseHeaderY),
      },
      label: place(
        label,
        bx + (bw - label.box.width) / 2,
        phaseHeaderY + (M.phaseHeaderHeight - label.box.height) / 2,
      ),
      caption: {
        x: round(bx),
        y: round(phaseHeaderY),
        width: round(bw),
        height: M.phaseHeaderHeight,
      },
    };
  });
}

function placeGroups(grid: Grid, at: Placed): BandLayout[] {
  return grid.groups.map((g) => {
    const li = grid.laneIndex.get(g.lane) ?? 0;
    const bx = (at.colX[g.fromCol] as number) + BAND_INSET.group;
    const bw = (at.colX[g.toCol + 1] as number) - BAND_INSET.group - bx;
    const by = (at.laneY[li] as number) + 6;
    const bh = (grid.laneH[li] as number) - 12;
    const label = bandLabel(g.label, bw);
    const caption = place(label, bx + 10, by + 7);
    return {
      id: g.id,
      variant: g.variant ?? "default",
      box: { x: round(bx), y: round(by), width: round(bw), height: round(bh) },
      label: caption,
      caption: caption.box,
    };
  });
}

/** Each node centred in its cell (moved by its yOffset), with its icon, texts, tag and brand. */
function placeNodes(diagram: WorkflowDiagram, grid: Grid, at: Placed): NodeLayout[] {
  return diagram.nodes.map((node, i) => {
    const c = grid.contents[i] as NodeContent;
    const li = grid.laneIndex.get(node.lane) ?? 0;
    const padTop = grid.lanePadTop[li] as number;
    const inner = (grid.laneH[li] as number) - padTop - M.lanePad;
    const centerX = at.cellX(node.col) + (grid.colW[node.col] as number) / 2;
    const centerY = (at.laneY[li] as number) + padTop + inner / 2 + (node.yOffset ?? 0);
    return placeNode(node, c, centerX, centerY);
  });
}

function placeNode(node: DiagramNode, c: NodeContent, centerX: number, centerY: number) {
  const box = {
    x: round(centerX - c.width / 2),
    y: round(centerY - c.height / 2),
    width: round(c.width),
    height: round(c.height),
  };
  const icon = c.withIcon
    ? {
        x: round(box.x + M.nodePad),
        y: round(centerY - M.iconSize / 2),
        width: M.iconSize,
        height: M.iconSize,
      }
    : { x: box.x, y: box.y, width: 0, height: 0 };
  const textX = box.x + M.nodePad + (c.withIcon ? M.iconSize + M.nodePad : 0);
  const layout: NodeLayout = {
    id: node.id,
    node,
    type: node.type,
    category: LEGEND_CATEGORY[node.type],
    box,
    icon,
    ...placeNodeTexts(c, textX, centerY),
  };
  const brand = brandOf(node, box);
  if (brand) layout.brand = brand;
  return layout;
}

/** The label, sublabel and tag pill stacked and centred on the node's middle line. */
function placeNodeTexts(
  c: NodeContent,
  textX: number,
  centerY: number,
): Pick<NodeLayout, "label" | "sublabel" | "tag"> {
  let contentH = c.label.box.height;
  if (c.sublabel) contentH += 2 + c.sublabel.box.height;
  if (c.tag) contentH += 6 + c.tag.box.height + 4;
  let ty = centerY - contentH / 2;
  const out: Pick<NodeLayout, "label" | "sublabel" | "tag"> = {
    label: place(c.label, textX, ty),
  };
  ty += c.label.box.height;
  if (c.sublabel) {
    out.sublabel = place(c.sublabel, textX, ty + 2);
    ty += 2 + c.sublabel.box.height;
  }
  if (c.tag) {
    const pill = {
      x: round(textX),
      y: round(ty + 6),
      width: round(c.tag.box.width + 12),
      height: round(c.tag.box.height + 4),
    };
    out.tag = { ...place(c.tag, textX + 6, ty + 8), pill };
  }
  return out;
}

/** The brand's monogram circle on the node's top right corner. */
function brandOf(node: DiagramNode, box: Box): NodeLayout["brand"] {
  if (!node.brand) return undefined;
  const monogram =
    node.brand.monogram ??
    node.brand.name
      .split(/\s+/)
      .map((w) => w[0] ?? "")
      .join("")
      .slice(0, 2)
      .toUpperCase();
  const r = monogram.length > 2 ? 12 : 10;
  return {
    circle: { cx: round(box.x + box.width - 4), cy: round(box.y + 4), r },
    monogram,
    size: monogram.length > 2 ? 8 : 9,
  };
}

/** The widest node of each column and the tallest of each lane. */
interface ContentSizes {
  colContent: number[];
  laneContent: number[];
}

function contentSizes(diagram: WorkflowDiagram, grid: Grid): ContentSizes {
  const colContent = grid.colW.map(() => 0);
  const laneContent = grid.laneH.map(() => 0);
  diagram.nodes.forEach((n, i) => {
    const c = grid.contents[i] as NodeContent;
    const li = grid.laneIndex.get(n.lane) ?? 0;
    colContent[n.col] = Math.max(colContent[n.col] as number, c.width);
    laneContent[li] = Math.max(laneContent[li] as number, c.height);
  });
  return { colContent, laneContent };
}

/** How near a track may come to a node (the router keeps 6 units clear of every node). */
const TRACK_CLEARANCE = 7;

/**
 * The gutters and lane gaps edges run in, with their room: a gutter's up to the nodes'
 * clearance on either side (the lane headers and the drawing's edge beside the outer ones); a
 * gap's up to 3 units from the lane outlines.
 */
function trackChannels(
  grid: Grid,
  at: Placed,
  { colContent }: ContentSizes,
  growth: Growth | undefined,
): Channels {
  const { colW, colGap, nCols } = grid;
  const beside = (c: number) =>
    c < 0 || c >= nCols
      ? M.columnEdgePad - 4
      : ((colW[c] as number) - (colContent[c] as number)) / 2 - TRACK_CLEARANCE;
  const xRoom: Room[] = at.colX.map((_, c) => ({
    lo: -((colGap[c] as number) / 2 + beside(c - 1)),
    hi: (colGap[c] as number) / 2 + beside(c),
  }));
  const yRoom: Room[] = grid.laneGap.map((g) => ({ lo: 3 - g / 2, hi: g / 2 - 3 }));
  return {
    xs: at.colX,
    ys: at.gapY,
    xRoom,
    yRoom,
    outsideRightX: round(M.margin + at.bodyWidth + M.outsideChannel / 2 + 4),
    spreadYs: growth?.spread,
    busyMiddleXs: at.colX.map((_, c) =>
      grid.phases.some((p) => p.fromCol === c || p.toCol + 1 === c),
    ),
  };
}

/** A `render/text-cut` warning for every text of the title, lanes, bands and nodes cut short. */
function textCutWarnings(
  diagram: WorkflowDiagram,
  grid: Grid,
  at: Placed,
  phases: BandLayout[],
  groups: BandLayout[],
): UnlocatedProblem[] {
  const warnings: UnlocatedProblem[] = [];
  const cut = (block: TextBlock, text: string | undefined, path: string) => {
    if (text !== undefined && isCut(block, text))
      warnings.push({ rule: "render/text-cut", path, message: cutMessage(block) });
  };
  cut(at.titleBlock, diagram.meta.title, "/meta/title");
  if (at.subtitleBlock) cut(at.subtitleBlock, diagram.meta.subtitle, "/meta/subtitle");
  grid.laneLabels.forEach((b, i) => {
    cut(b, diagram.lanes[i]?.label, `/lanes/${i}/label`);
  });
  phases.forEach((b, i) => {
    cut(b.label, grid.phases[i]?.label, `/phases/${i}/label`);
  });
  groups.forEach((b, i) => {
    cut(b.label, grid.groups[i]?.label, `/groups/${i}/label`);
  });
  grid.contents.forEach((c, i) => {
    const node = diagram.nodes[i] as DiagramNode;
    cut(c.label, node.label, `/nodes/${i}/label`);
    if (c.sublabel) cut(c.sublabel, node.sublabel, `/nodes/${i}/sublabel`);
    if (c.tag) cut(c.tag, node.tag, `/nodes/${i}/tag`);
  });
  return warnings;
}

/**
 * Moves an edge's coordinates from the natural grid (where the description defines them) onto
 * the grid as drawn, so they keep their place between the same columns and lanes.
 */
function naturalToDrawing(grid: Grid, frame: Frame, at: Placed, content: ContentSizes) {
  const { colW, colGap, laneH, laneGap, lanePadTop } = grid;
  const colMiddle = (start: number, size: number) => start + size / 2;
  const laneMiddle = (start: number, size: number, l: number) => {
    const padTop = lanePadTop[l] as number;
    return start + padTop + (size - padTop - M.lanePad) / 2;
  };
  const firstCol = M.margin + M.laneHeaderWidth + M.columnEdgePad;
  const naturalGaps = laneGap.map(() => M.laneGap as number);
  return stretchMap(
    gridLines(
      firstCol,
      frame.natural.colW,
      colGap.map(() => 0),
      content.colContent,
      colMiddle,
    ),
    gridLines(at.colX[0] as number, colW, colGap, content.colContent, colMiddle),
    gridLines(
      M.margin + frame.natural.header + M.laneGap / 2,
      frame.natural.laneH,
      naturalGaps,
      content.laneContent,
      laneMiddle,
    ),
    gridLines(at.gapY[0] as number, laneH, laneGap, content.laneContent, laneMiddle),
  );
}

function assemble(
  grid: Grid,
  frame: Frame,
  at: Placed,
  parts: Pick<Layout, "lanes" | "phases" | "groups" | "nodes">,
  routed: Routed,
  warnings: UnlocatedProblem[],
): Layout {
  const legend = frame.legendPlan.place(M.margin, at.bodyBottom + M.legendGap, at.bodyWidth);
  const layout: Layout = {
    width: round(frame.width),
    height: round(frame.height),
    scale: round(frame.scale * 10000) / 10000,
    offset: frame.offset,
    title: at.titleBlock,
    body: at.body,
    columns: grid.colW.map((w, i) => ({ index: i, x: round(at.cellX(i)), width: round(w) })),
    ...parts,
    edges: routed.edges,
    warnings,
  };
  if (at.subtitleBlock) layout.subtitle = at.subtitleBlock;
  if (legend) layout.legend = legend;
  return layout;
}
