import { round } from "../../../core/geometry.js";
import { planLegend } from "../../../core/legend.js";
import type { UnlocatedProblem } from "../../../validate/schema-problems.js";
import type { DiagramNode, Edge, Point, WorkflowDiagram } from "../model.js";
import { LEGEND_CATEGORY } from "../model.js";
import {
  edgeRole,
  type LabelBlocks,
  labelEdges,
  mainPairs,
  type Routed,
  routeEdges,
} from "./edges.js";
import { cutMessage, isCut, METRICS as M, place } from "./metrics.js";
import type { Channels, Room } from "./route.js";
import {
  BAND_INSET,
  bandLabelWrap,
  EDGE_LABEL,
  LANE_LABEL,
  mayCutText,
  nodeWraps,
  subtitleWrap,
  titleWrap,
  wrap,
} from "./texts.js";
import { roomFor } from "./tracks.js";
import type { BandLayout, Box, Layout, NodeLayout, TextBlock } from "./types.js";

export { type Words, wordsFor } from "../../../core/words.js";
export { METRICS } from "./metrics.js";
export type * from "./types.js";

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

/**
 * The grid lines along one axis: the middle of each gap (`gaps[i]` before cell i, the last
 * after the last cell, the first gap's middle at `line0`) and, for each cell (`sizes` long),
 * its start, the start and end of the band its nodes fill (`content` long, centred where
 * `middle` puts it) and its end. Mapping between two such sets moves gutters with gutters and
 * node bands with node bands, which keep their size.
 */
function gridLines(
  line0: number,
  sizes: number[],
  gaps: number[],
  content: number[],
  middle: (cellStart: number, size: number, cell: number) => number,
): number[] {
  const out: number[] = [line0];
  let at = line0 + (gaps[0] ?? 0) / 2;
  sizes.forEach((size, i) => {
    const mid = middle(at, size, i);
    const half = (content[i] ?? 0) / 2;
    const gap = gaps[i + 1] ?? 0;
    out.push(at, mid - half, mid + half, at + size, at + size + gap / 2);
    at += size + gap;
  });
  return out;
}

/** Maps `v` from the lines `from` to the lines `to`, linearly between them, shifted beyond. */
function stretch(v: number, from: number[], to: number[]): number {
  const n = from.length;
  if (n === 0) return v;
  // On lines that coincide in `from` (a gap with no width): the middle of where they went.
  const first = from.findIndex((f) => Math.abs(f - v) < 0.01);
  if (first >= 0) {
    let last = first;
    while (last + 1 < n && Math.abs((from[last + 1] as number) - v) < 0.01) last++;
    return round(((to[first] as number) + (to[last] as number)) / 2);
  }
  if (v <= (from[0] as number)) return v + (to[0] as number) - (from[0] as number);
  for (let i = 1; i < n; i++) {
    const a = from[i - 1] as number;
    const b = from[i] as number;
    if (v <= b) {
      const t = b > a ? (v - a) / (b - a) : 0;
      return round((to[i - 1] as number) + t * ((to[i] as number) - (to[i - 1] as number)));
    }
  }
  return v + (to[n - 1] as number) - (from[n - 1] as number);
}

/**
 * An edge's coordinates (`via`, `channelX`, `channelY`, `labelAt`) moved from the natural grid,
 * where the description defines them, onto the grid as drawn (widened or heightened to fill a
 * meta.viewBox), so that they keep their place between the same columns and lanes.
 */
function stretchMap(
  fromX: number[],
  toX: number[],
  fromY: number[],
  toY: number[],
): (edge: Edge) => Edge {
  const same = (a: number[], b: number[]) =>
    a.every((v, i) => Math.abs(v - (b[i] as number)) < 0.01);
  if (same(fromX, toX) && same(fromY, toY)) return (edge) => edge;
  const point = (p: Point): Point => ({ x: stretch(p.x, fromX, toX), y: stretch(p.y, fromY, toY) });
  return (edge) => {
    const out: Edge = { ...edge };
    if (edge.via) out.via = edge.via.map(point);
    if (edge.labelAt) out.labelAt = point(edge.labelAt);
    if (edge.channelX !== undefined) out.channelX = stretch(edge.channelX, fromX, toX);
    if (edge.channelY !== undefined) out.channelY = stretch(edge.channelY, fromY, toY);
    return out;
  };
}

/** How near a track may come to a node (the router keeps 6 units clear of every node). */
const TRACK_CLEARANCE = 7;

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

/** Extra room at each column boundary (0..columns) and in each lane gap (0..lanes), in units. */
interface Growth {
  cols: number[];
  gaps: number[];
  /** Per lane gap: true once it grew for a label (see Channels.spreadYs). */
  spread: boolean[];
  /** Room added right of the `outside-right` channels, for labels beside them. */
  outside: number;
}

/** Text measured once per layout, however many passes it takes. */
interface Measured {
  nodes: NodeContent[];
  labels: LabelBlocks;
}

const measure = (diagram: WorkflowDiagram): Measured => ({
  nodes: diagram.nodes.map(measureNode),
  labels: new Map(),
});

/** One layout of the grid with the edges routed, before their labels are placed. */
interface Pass {
  layout: Layout;
  routed: Routed;
  bounds: Box;
  bands: BandLayout[];
  nodes: NodeLayout[];
  channels: Channels;
  /** The growth this pass was laid out with. */
  growth: Growth;
}

/** How many times the grid may grow to give every run its own track. */
const MAX_GROWTH = 3;

/**
 * Lays the grid out and routes the edges, then widens every gutter and lane gap that lacked
 * tracks and does it again, until every run has its own track (or MAX_GROWTH rounds).
 */
function settle(diagram: WorkflowDiagram, measured: Measured, from?: Growth): Pass {
  let growth = from;
  for (let round = 0; ; round++) {
    const pass = layOut(diagram, measured, growth, false, round < MAX_GROWTH);
    const { xShort, yShort } = pass.routed;
    if (round === MAX_GROWTH || (xShort.every((n) => n === 0) && yShort.every((n) => n === 0))) {
      return pass;
    }
    const before = growth;
    growth = {
      cols: xShort.map((n, c) => (before?.cols[c] ?? 0) + roomFor("x", n)),
      gaps: yShort.map((n, l) => (before?.gaps[l] ?? 0) + roomFor("y", n)),
      spread: before?.spread ?? [],
      outside: before?.outside ?? 0,
    };
  }
}

/** How many times the grid may grow to give every label room beside its own edge. */
const MAX_LABEL_GROWTH = 3;
/** Room kept around a label a gutter or gap grows for. */
const LABEL_MARGIN = 2 * 12;

/**
 * The growth that gives each crowded label room: the gutter its segment runs in or crosses
 * widens by the label's width, the lane gap by its height (once per channel, the largest).
 */
function labelGrowth(pass: Pass, crowded: ReturnType<typeof labelEdges>): Growth {
  const { xs, ys, xRoom, yRoom } = pass.channels;
  const cols = [...pass.growth.cols];
  const gaps = [...pass.growth.gaps];
  const colNeed = xs.map(() => 0);
  const gapNeed = ys.map(() => 0);
  const spread: boolean[] = [];
  let outside = 0;
  const bodyRight = (xs[xs.length - 1] as number) + (xRoom[xRoom.length - 1] as Room).hi;
  const nearest = (lines: number[], v: number) =>
    lines.reduce(
      (best, l, i) => (Math.abs(l - v) < Math.abs((lines[best] as number) - v) ? i : best),
      0,
    );
  const within = (lines: number[], rooms: Room[], v: number) =>
    lines.findIndex((l, i) => v - l >= (rooms[i] as Room).lo && v - l <= (rooms[i] as Room).hi);
  for (const { a, b, width, height } of crowded) {
    const horizontal = Math.abs(a.y - b.y) < 0.01;
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    // A run along a gap or gutter needs it deeper; one across, the gutter or gap it crosses.
    const gap = horizontal ? within(ys, yRoom, a.y) : -1;
    const gutter = horizontal ? -1 : within(xs, xRoom, a.x);
    if (!horizontal && a.x > bodyRight) outside = Math.max(outside, width + LABEL_MARGIN);
    else if (gap >= 0) {
      gapNeed[gap] = Math.max(gapNeed[gap] as number, height + LABEL_MARGIN);
      spread[gap] = true;
    } else if (gutter >= 0)
      colNeed[gutter] = Math.max(colNeed[gutter] as number, width + LABEL_MARGIN);
    else if (horizontal) {
      const c = nearest(xs, mid.x);
      colNeed[c] = Math.max(colNeed[c] as number, width + LABEL_MARGIN);
    } else {
      const l = nearest(ys, mid.y);
      gapNeed[l] = Math.max(gapNeed[l] as number, height + LABEL_MARGIN);
    }
  }
  return {
    cols: cols.map((g, c) => g + (colNeed[c] as number)),
    gaps: gaps.map((g, l) => g + (gapNeed[l] as number)),
    spread: ys.map((_, l) => pass.growth.spread[l] === true || spread[l] === true),
    outside: pass.growth.outside + outside,
  };
}

/** Positions every part of the diagram. Pure: the same description always gives the same numbers. */
export function layoutDiagram(diagram: WorkflowDiagram): Layout {
  const measured = measure(diagram);
  let growth: Growth | undefined;
  for (let round = 0; ; round++) {
    const pass = settle(diagram, measured, growth);
    const crowded = labelEdges(
      pass.layout.edges,
      pass.nodes,
      pass.bounds,
      pass.bands,
      pass.layout.lanes.map((l) => l.header),
      measured.labels,
    );
    if (crowded.length === 0 || round === MAX_LABEL_GROWTH) return pass.layout;
    growth = labelGrowth(pass, crowded);
  }
}

/**
 * What the drawing cannot honour, as `layoutDiagram(diagram).warnings` gives it, without
 * placing the edge labels (which warn about nothing): what `validate` reports, made cheaply.
 */
export function layoutWarnings(diagram: WorkflowDiagram): UnlocatedProblem[] {
  // Only a requested route or channel (what routeEdges routes in such a pass) and text cut
  // short can warn. Most descriptions have neither, and that is known without a layout.
  const requests = diagram.edges.some(
    (e) => e.route !== undefined || e.channelX !== undefined || e.channelY !== undefined,
  );
  if (!requests && !mayCutText(diagram)) return [];
  // Growing the grid keeps every node, channel and coordinate in its order (and the title at
  // its width), so what the routes cannot honour is the same before it: one pass suffices.
  return layOut(diagram, measure(diagram), undefined, true).layout.warnings;
}

/** One pass; `warningsOnly`: routes only what can warn (see routeEdges). */
function layOut(
  diagram: WorkflowDiagram,
  measured: Measured,
  growth: Growth | undefined,
  warningsOnly = false,
  /** True when a pass short of tracks will be redone: it stops once it knows (see routeEdges). */
  countFirst = false,
): Pass {
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

  // Column widths and lane heights from the nodes they hold.
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

  const usesOutside = diagram.edges.some(
    (e) => e.route === "outside-right" && e.channelX === undefined,
  );
  const outsideCount = diagram.edges.filter(
    (e) => e.route === "outside-right" && e.channelX === undefined,
  ).length;
  const outsideBase = usesOutside ? M.outsideChannel + 10 * (outsideCount - 1) : 0;
  const outsideWidth = usesOutside ? outsideBase + (growth?.outside ?? 0) : 0;

  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const colGap = Array.from({ length: nCols + 1 }, (_, c) => growth?.cols[c] ?? 0);
  const laneGap = Array.from(
    { length: laneH.length + 1 },
    (_, l) => M.laneGap + (growth?.gaps[l] ?? 0),
  );
  const bodyWidthOf = () => M.laneHeaderWidth + 2 * M.columnEdgePad + sum(colW) + sum(colGap);
  const naturalBody = M.laneHeaderWidth + 2 * M.columnEdgePad + sum(colW);
  let title = wrap(diagram.meta.title, titleWrap(naturalBody));
  const subtitleText = diagram.meta.subtitle;
  let subtitle =
    subtitleText !== undefined && subtitleText !== ""
      ? wrap(subtitleText, subtitleWrap(naturalBody))
      : undefined;
  const headerHeight = () =>
    title.box.height +
    (subtitle ? 4 + subtitle.box.height : 0) +
    16 +
    (phases.length ? M.phaseHeaderHeight : 0);

  // The legend, sized now so the natural height is known.
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

  const lanesHeight = () => sum(laneH) + sum(laneGap);
  // Fill a requested (or the minimum) size by widening columns and heightening lanes.
  const requested = diagram.meta.viewBox;
  const targetW = Math.max(requested?.[0] ?? M.minWidth, M.minWidth);
  const targetH = Math.max(requested?.[1] ?? M.minHeight, M.minHeight);
  // The grid before any filling: the description's coordinates (via, channels, labelAt) are
  // in these units, so they keep their place among the nodes when a viewBox stretches the grid.
  // Gutters and gaps grown for tracks are not part of it either.
  const naturalColW = [...colW];
  const naturalLaneH = [...laneH];
  const naturalHeader = headerHeight();
  const grownWidth = 2 * M.margin + bodyWidthOf() + outsideWidth;
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
  const filledHeight =
    2 * M.margin + headerHeight() + lanesHeight() + legendHeightOf(bodyWidthOf());
  if (targetH > filledHeight) {
    const extra = (targetH - filledHeight) / laneH.length;
    for (let l = 0; l < laneH.length; l++) laneH[l] = (laneH[l] as number) + extra;
  }
  const contentW = 2 * M.margin + bodyWidthOf() + outsideWidth;
  const contentH = 2 * M.margin + headerHeight() + lanesHeight() + legendHeightOf(bodyWidthOf());
  const width = requested ? requested[0] : Math.max(contentW, M.minWidth);
  const height = requested ? requested[1] : Math.max(contentH, M.minHeight);
  const scale = Math.min(1, width / contentW, height / contentH);
  const offset = {
    x: round((width - contentW * scale) / 2),
    y: round((height - contentH * scale) / 2),
  };

  // Positions.
  const x0 = M.margin;
  let y = M.margin;
  const titleBlock = place(title, x0, y);
  y += title.box.height;
  let subtitleBlock: TextBlock | undefined;
  if (subtitle) {
    subtitleBlock = place(subtitle, x0, y + 4);
    y += 4 + subtitle.box.height;
  }
  y += 16;
  const phaseHeaderY = y;
  if (phases.length) y += M.phaseHeaderHeight;
  const bodyTop = y;
  // colX[c]: the middle of the gutter before column c (the last after the last column).
  const colX: number[] = [];
  let cx = x0 + M.laneHeaderWidth + M.columnEdgePad + (colGap[0] as number) / 2;
  for (let c = 0; c <= nCols; c++) {
    colX.push(round(cx));
    cx += (colGap[c] as number) / 2 + (colW[c] ?? 0) + (colGap[c + 1] ?? 0) / 2;
  }
  const cellX = (c: number) => (colX[c] as number) + (colGap[c] as number) / 2;
  const bodyWidth = bodyWidthOf();
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

  const lanes = diagram.lanes.map((lane, i) => {
    const box = {
      x: x0,
      y: laneY[i] as number,
      width: round(bodyWidth),
      height: round(laneH[i] as number),
    };
    const label = laneLabels[i] as TextBlock;
    return {
      id: lane.id,
      index: i,
      exception: lane.variant === "exception",
      box,
      header: { x: x0, y: box.y, width: M.laneHeaderWidth, height: box.height },
      label: place(label, x0 + 12, box.y + (box.height - label.box.height) / 2),
    };
  });

  const bandLabel = (text: string, width: number) => wrap(text, bandLabelWrap(width));
  const phaseLayouts: BandLayout[] = phases.map((p) => {
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
  const groupLayouts: BandLayout[] = groups.map((g) => {
    const li = laneIndex.get(g.lane) ?? 0;
    const bx = (colX[g.fromCol] as number) + BAND_INSET.group;
    const bw = (colX[g.toCol + 1] as number) - BAND_INSET.group - bx;
    const by = (laneY[li] as number) + 6;
    const bh = (laneH[li] as number) - 12;
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

  const nodes: NodeLayout[] = diagram.nodes.map((node, i) => {
    const c = contents[i] as NodeContent;
    const li = laneIndex.get(node.lane) ?? 0;
    const padTop = lanePadTop[li] as number;
    const inner = (laneH[li] as number) - padTop - M.lanePad;
    const centerX = cellX(node.col) + (colW[node.col] as number) / 2;
    const centerY = (laneY[li] as number) + padTop + inner / 2 + (node.yOffset ?? 0);
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
    let contentH = c.label.box.height;
    if (c.sublabel) contentH += 2 + c.sublabel.box.height;
    if (c.tag) contentH += 6 + c.tag.box.height + 4;
    let ty = centerY - contentH / 2;
    const label = place(c.label, textX, ty);
    ty += c.label.box.height;
    let sublabel: TextBlock | undefined;
    if (c.sublabel) {
      sublabel = place(c.sublabel, textX, ty + 2);
      ty += 2 + c.sublabel.box.height;
    }
    let tag: NodeLayout["tag"];
    if (c.tag) {
      const pill = {
        x: round(textX),
        y: round(ty + 6),
        width: round(c.tag.box.width + 12),
        height: round(c.tag.box.height + 4),
      };
      tag = { ...place(c.tag, textX + 6, ty + 8), pill };
    }
    let brand: NodeLayout["brand"];
    if (node.brand) {
      const monogram =
        node.brand.monogram ??
        node.brand.name
          .split(/\s+/)
          .map((w) => w[0] ?? "")
          .join("")
          .slice(0, 2)
          .toUpperCase();
      const r = monogram.length > 2 ? 12 : 10;
      brand = {
        circle: { cx: round(box.x + box.width - 4), cy: round(box.y + 4), r },
        monogram,
        size: monogram.length > 2 ? 8 : 9,
      };
    }
    const layout: NodeLayout = {
      id: node.id,
      node,
      type: node.type,
      category: LEGEND_CATEGORY[node.type],
      box,
      icon,
      label,
    };
    if (sublabel) layout.sublabel = sublabel;
    if (tag) layout.tag = tag;
    if (brand) layout.brand = brand;
    return layout;
  });

  const colContent = colW.map(() => 0);
  const laneContent = laneH.map(() => 0);
  diagram.nodes.forEach((n, i) => {
    const c = contents[i] as NodeContent;
    const li = laneIndex.get(n.lane) ?? 0;
    colContent[n.col] = Math.max(colContent[n.col] as number, c.width);
    laneContent[li] = Math.max(laneContent[li] as number, c.height);
  });
  // A gutter's room: up to the nodes' clearance on either side (the lane headers and the
  // drawing's edge beside the outer ones); a gap's: up to 3 units from the lane outlines.
  const beside = (c: number) =>
    c < 0 || c >= nCols
      ? M.columnEdgePad - 4
      : ((colW[c] as number) - (colContent[c] as number)) / 2 - TRACK_CLEARANCE;
  const xRoom: Room[] = colX.map((_, c) => ({
    lo: -((colGap[c] as number) / 2 + beside(c - 1)),
    hi: (colGap[c] as number) / 2 + beside(c),
  }));
  const yRoom: Room[] = laneGap.map((g) => ({ lo: 3 - g / 2, hi: g / 2 - 3 }));
  const channels: Channels = {
    xs: colX,
    ys: gapY,
    xRoom,
    yRoom,
    outsideRightX: round(x0 + bodyWidth + M.outsideChannel / 2 + 4),
    spreadYs: growth?.spread,
    busyMiddleXs: colX.map((_, c) => phases.some((p) => p.fromCol === c || p.toCol + 1 === c)),
  };
  const bounds = { x: 0, y: 0, width: contentW, height: contentH };
  const warnings: UnlocatedProblem[] = [];
  const warn = (rule: string, path: string, message: string) => {
    warnings.push({ rule, path, message });
  };
  const cut = (block: TextBlock, text: string | undefined, path: string) => {
    if (text !== undefined && isCut(block, text)) warn("render/text-cut", path, cutMessage(block));
  };
  cut(titleBlock, diagram.meta.title, "/meta/title");
  if (subtitleBlock) cut(subtitleBlock, subtitleText, "/meta/subtitle");
  laneLabels.forEach((b, i) => {
    cut(b, diagram.lanes[i]?.label, `/lanes/${i}/label`);
  });
  phaseLayouts.forEach((b, i) => {
    cut(b.label, phases[i]?.label, `/phases/${i}/label`);
  });
  groupLayouts.forEach((b, i) => {
    cut(b.label, groups[i]?.label, `/groups/${i}/label`);
  });
  contents.forEach((c, i) => {
    const node = diagram.nodes[i] as DiagramNode;
    cut(c.label, node.label, `/nodes/${i}/label`);
    if (c.sublabel) cut(c.sublabel, node.sublabel, `/nodes/${i}/sublabel`);
    if (c.tag) cut(c.tag, node.tag, `/nodes/${i}/tag`);
  });
  const colMiddle = (at: number, size: number) => at + size / 2;
  const laneMiddle = (at: number, size: number, l: number) => {
    const padTop = lanePadTop[l] as number;
    return at + padTop + (size - padTop - M.lanePad) / 2;
  };
  const firstCol = M.margin + M.laneHeaderWidth + M.columnEdgePad;
  const naturalGaps = laneGap.map(() => M.laneGap as number);
  const toDrawing = stretchMap(
    gridLines(
      firstCol,
      naturalColW,
      colGap.map(() => 0),
      colContent,
      colMiddle,
    ),
    gridLines(colX[0] as number, colW, colGap, colContent, colMiddle),
    gridLines(
      M.margin + naturalHeader + M.laneGap / 2,
      naturalLaneH,
      naturalGaps,
      laneContent,
      laneMiddle,
    ),
    gridLines(gapY[0] as number, laneH, laneGap, laneContent, laneMiddle),
  );
  const routed = routeEdges(
    { ...diagram, edges: diagram.edges.map(toDrawing) },
    nodes,
    laneIndex,
    channels,
    warn,
    warningsOnly,
    measured.labels,
    countFirst,
  );

  const legend = legendPlan.place(x0, bodyBottom + M.legendGap, bodyWidth);

  const layout: Layout = {
    width: round(width),
    height: round(height),
    scale: round(scale * 10000) / 10000,
    offset,
    title: titleBlock,
    body,
    columns: colW.map((w, i) => ({ index: i, x: round(cellX(i)), width: round(w) })),
    lanes,
    phases: phaseLayouts,
    groups: groupLayouts,
    nodes,
    edges: routed.edges,
    warnings,
  };
  if (subtitleBlock) layout.subtitle = subtitleBlock;
  if (legend) layout.legend = legend;
  return {
    layout,
    routed,
    bounds,
    bands: [...phaseLayouts, ...groupLayouts],
    nodes,
    channels,
    growth: {
      cols: colGap,
      gaps: laneGap.map((g) => g - M.laneGap),
      spread: growth?.spread ?? [],
      outside: growth?.outside ?? 0,
    },
  };
}
