import { type Box, round } from "../../core/geometry.js";
import type { EdgeRole, Point } from "../../core/model.js";
import { lineHeight, place, type TextBlock, textBlock } from "../../core/text/block.js";
import {
  allStates,
  type LifecycleDiagram,
  type LifecycleMeta,
  type State,
  transitionText,
} from "./model.js";

/** Sizes of a lifecycle drawing, in diagram units; every preset shares them. */
export const LIFECYCLE_METRICS = {
  margin: 28,
  titleSize: 22,
  subtitleSize: 13,
  labelSize: 13,
  sublabelSize: 11,
  edgeLabelSize: 11,
  stateMinWidth: 96,
  stateMaxText: 168,
  stateMinHeight: 40,
  statePadX: 14,
  statePadY: 10,
  compositePad: 18,
  compositeHeaderGap: 8,
  initial: 18,
  final: 24,
  choice: 30,
  labelMaxWidth: 176,
  labelPad: 3,
  noteMaxWidth: 180,
  notePad: 8,
  nodeGap: 32,
  layerGap: 56,
} as const;
const LM = LIFECYCLE_METRICS;

export type StateShape = "state" | "composite" | "initial" | "final" | "choice";

export interface StateLayout {
  id: string;
  shape: StateShape;
  box: Box;
  /** The enclosing composite state's id; undefined at the top level. */
  parent: string | undefined;
  label?: TextBlock;
  sublabel?: TextBlock;
  /** Composite states: the strip under the border that holds the label. */
  header?: Box;
}

export interface TransitionLayout {
  /** The transition's id, or `t<index>` when the description gives none. */
  id: string;
  index: number;
  from: string;
  to: string;
  role: EdgeRole;
  /** Orthogonal polyline from the source's border to the target's. */
  points: Point[];
  arrow: { tip: Point; dx: number; dy: number };
  label?: TextBlock & { background: Box };
}

export interface NoteLayout {
  id: string;
  state: string;
  box: Box;
  text: TextBlock;
  /** The dashed connector from the note to its state. */
  link: Point[];
}

export interface LifecycleLayout {
  meta: LifecycleMeta;
  width: number;
  height: number;
  scale: number;
  offset: Point;
  title: TextBlock;
  subtitle?: TextBlock;
  /** Composite states come before the states they hold (drawing order). */
  states: StateLayout[];
  transitions: TransitionLayout[];
  notes: NoteLayout[];
}

// The slice of elkjs's graph format used here (elkjs ships no types for the bundled entry).
interface ElkLabel {
  text?: string;
  layoutOptions?: Record<string, string>;
  width: number;
  height: number;
  x?: number;
  y?: number;
}
interface ElkNode {
  id: string;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  children?: ElkNode[];
  edges?: ElkEdge[];
  layoutOptions?: Record<string, string>;
}
interface ElkSection {
  startPoint: Point;
  endPoint: Point;
  bendPoints?: Point[];
}
interface ElkEdge {
  id: string;
  sources: string[];
  targets: string[];
  labels?: ElkLabel[];
  sections?: ElkSection[];
}
interface Elk {
  layout(graph: ElkNode): Promise<ElkNode>;
}

let elkInstance: Promise<Elk> | undefined;

/** elkjs is loaded here, on the first lifecycle layout, so other types never pay for it. */
function elk(): Promise<Elk> {
  elkInstance ??= import("elkjs/lib/elk.bundled.js").then((m) => {
    const ELK = (m as unknown as { default: new () => Elk }).default;
    return new ELK();
  });
  return elkInstance;
}

const ELK_DIRECTION = { right: "RIGHT", down: "DOWN", left: "LEFT", up: "UP" } as const;

/** Measured contents of one state, before placement. */
interface Measured {
  shape: StateShape;
  width: number;
  height: number;
  label?: TextBlock;
  sublabel?: TextBlock;
}

function measureState(state: State): Measured {
  const kind = state.kind ?? "normal";
  if (kind === "initial") return { shape: "initial", width: LM.initial, height: LM.initial };
  if (kind === "final") return { shape: "final", width: LM.final, height: LM.final };
  if (kind === "choice") return { shape: "choice", width: LM.choice, height: LM.choice };
  const label = textBlock(state.label ?? state.id, LM.labelSize, "semibold", LM.stateMaxText, 3);
  const sublabel =
    state.sublabel !== undefined && state.sublabel !== ""
      ? textBlock(state.sublabel, LM.sublabelSize, "regular", LM.stateMaxText, 3)
      : undefined;
  const textW = Math.max(label.box.width, sublabel?.box.width ?? 0);
  const textH = label.box.height + (sublabel ? 2 + sublabel.box.height : 0);
  const composite = (state.states?.length ?? 0) > 0;
  const measured: Measured = {
    shape: composite ? "composite" : "state",
    width: Math.ceil(Math.max(LM.stateMinWidth, textW + 2 * LM.statePadX)),
    height: Math.ceil(Math.max(LM.stateMinHeight, textH + 2 * LM.statePadY)),
    label,
  };
  if (sublabel) measured.sublabel = sublabel;
  return measured;
}

function labelBlock(lines: string[]): TextBlock {
  // Each part (event, [guard], / action) wraps on its own, so a part never shares a line.
  const blocks = lines.map((l) => textBlock(l, LM.edgeLabelSize, "regular", LM.labelMaxWidth, 3));
  const all = blocks.flatMap((b) => b.lines);
  return {
    lines: all,
    size: LM.edgeLabelSize,
    weight: "regular",
    box: {
      x: 0,
      y: 0,
      width: round(Math.max(...blocks.map((b) => b.box.width))),
      height: all.length * lineHeight(LM.edgeLabelSize),
    },
  };
}

/** Spacing for the top-level graph and every composite's own. */
const SPACING = {
  "elk.spacing.nodeNode": String(LM.nodeGap),
  "elk.layered.spacing.nodeNodeBetweenLayers": String(LM.layerGap),
  "elk.spacing.edgeNode": "14",
  "elk.spacing.edgeEdge": "12",
  // Labels elk places beside a line rather than on it (self-transitions) touch that line.
  "elk.spacing.edgeLabel": "0",
  "elk.layered.spacing.edgeNodeBetweenLayers": "16",
  "elk.layered.spacing.edgeEdgeBetweenLayers": "12",
} as const;

const LAYOUT_OPTIONS = {
  ...SPACING,
  "elk.algorithm": "layered",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.edgeRouting": "ORTHOGONAL",
  "elk.edgeLabels.placement": "CENTER",
  "elk.json.edgeCoords": "ROOT",
  "elk.json.shapeCoords": "ROOT",
  "elk.randomSeed": "1",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
  // Back edges are the ones a walk from the initial state meets last: the reading order.
  "elk.layered.cycleBreaking.strategy": "DEPTH_FIRST",
  "elk.layered.crossingMinimization.forceNodeModelOrder": "false",
} as const;

/**
 * Lays out a validated lifecycle description: elkjs's layered algorithm (hierarchy included, so
 * composite states hold their children and transitions may cross their borders), label boxes
 * measured here so elk keeps them clear of states and of each other. Every number is rounded,
 * so the same description gives the same SVG on every machine.
 */
export async function layoutLifecycle(diagram: LifecycleDiagram): Promise<LifecycleLayout> {
  const M = LM;
  const measured = new Map<string, Measured>();
  const parents = new Map<string, string | undefined>();
  for (const { state, parent } of allStates(diagram.states)) {
    measured.set(state.id, measureState(state));
    parents.set(state.id, parent?.id);
  }
  const toElk = (state: State): ElkNode => {
    const m = measured.get(state.id) as Measured;
    if (m.shape !== "composite") {
      const node: ElkNode = { id: state.id, width: m.width, height: m.height };
      // Read from the start: initial states open their region, final states close it.
      if (m.shape === "initial")
        node.layoutOptions = { "elk.layered.layering.layerConstraint": "FIRST" };
      if (m.shape === "final")
        node.layoutOptions = { "elk.layered.layering.layerConstraint": "LAST" };
      return node;
    }
    const top = m.height - LM.statePadY + LM.compositeHeaderGap;
    return {
      id: state.id,
      children: (state.states ?? []).map(toElk),
      // elk does not pass spacing down to a nested graph, so it is repeated. (Repeating the
      // model-order options too made elk 0.12 throw inside its crossing minimisation.)
      layoutOptions: {
        ...SPACING,
        "elk.padding": `[top=${top},left=${LM.compositePad},bottom=${LM.compositePad},right=${LM.compositePad}]`,
        "elk.nodeSize.constraints": "MINIMUM_SIZE",
        "elk.nodeSize.minimum": `(${m.width}, ${m.height})`,
      },
    };
  };
  const children = diagram.states.map(toElk);
  const labels = new Map<string, TextBlock>();
  const edges: ElkEdge[] = diagram.transitions.map((t, index) => {
    const id = `t${index}`;
    const lines = transitionText(t);
    const edge: ElkEdge = { id, sources: [t.from], targets: [t.to] };
    if (lines.length > 0) {
      const block = labelBlock(lines);
      labels.set(id, block);
      edge.labels = [
        {
          text: lines.join(" "),
          width: block.box.width + 2 * LM.labelPad,
          height: block.box.height + 2 * LM.labelPad,
          // On the line, not beside it: the label reads as part of its own transition.
          layoutOptions: { "elk.edgeLabels.inline": "true" },
        },
      ];
    }
    return edge;
  });
  const noteBlocks = (diagram.notes ?? []).map((n) =>
    textBlock(n.text, M.sublabelSize, "regular", LM.noteMaxWidth, 8),
  );
  (diagram.notes ?? []).forEach((note, i) => {
    const block = noteBlocks[i] as TextBlock;
    const node = {
      id: `note${i}`,
      width: Math.ceil(block.box.width + 2 * LM.notePad + 8),
      height: Math.ceil(block.box.height + 2 * LM.notePad),
    };
    // A note sits in its state's region, beside it.
    const parent = parents.get(note.state);
    const holder = (parent === undefined ? undefined : findChildren(children, parent)) ?? children;
    holder.push(node);
    edges.push({ id: `n${i}`, sources: [node.id], targets: [note.state] });
  });

  const graph: ElkNode = {
    id: "root",
    layoutOptions: {
      ...LAYOUT_OPTIONS,
      "elk.direction": ELK_DIRECTION[diagram.direction ?? "right"],
      "elk.padding": "[top=0,left=0,bottom=0,right=0]",
    },
    children,
    edges,
  };
  let laid: ElkNode;
  try {
    laid = await (await elk()).layout(graph);
  } catch (error) {
    // elk reports its own failures as Java exceptions with a minified stack: say what failed.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the lifecycle layout engine (elkjs) failed on this description: ${reason}`);
  }

  // Flatten elk's result: every shape and edge is in root coordinates (json.*Coords ROOT).
  const boxes = new Map<string, Box>();
  const visit = (node: ElkNode) => {
    for (const child of node.children ?? []) {
      boxes.set(child.id, {
        x: child.x ?? 0,
        y: child.y ?? 0,
        width: child.width ?? 0,
        height: child.height ?? 0,
      });
      visit(child);
    }
  };
  visit(laid);
  const laidEdges = new Map<string, ElkEdge>();
  const collect = (node: ElkNode) => {
    for (const e of node.edges ?? []) laidEdges.set(e.id, e);
    for (const c of node.children ?? []) collect(c);
  };
  collect(laid);

  const graphW = laid.width ?? 0;
  const graphH = laid.height ?? 0;
  let title = textBlock(diagram.meta.title, M.titleSize, "semibold", Math.max(graphW, 560), 2);
  const subtitleText = diagram.meta.subtitle;
  let subtitle =
    subtitleText !== undefined && subtitleText !== ""
      ? textBlock(subtitleText, M.subtitleSize, "regular", Math.max(graphW, 560), 3)
      : undefined;
  const x0 = M.margin;
  let y = M.margin;
  title = place(title, x0, y);
  y += title.box.height;
  if (subtitle) {
    subtitle = place(subtitle, x0, y + 4);
    y += 4 + subtitle.box.height;
  }
  const top = y + 24;
  const dx = x0;
  const dy = top;
  const move = (b: Box): Box => ({
    x: round(b.x + dx),
    y: round(b.y + dy),
    width: round(b.width),
    height: round(b.height),
  });
  const pt = (p: Point): Point => ({ x: round(p.x + dx), y: round(p.y + dy) });

  const states: StateLayout[] = allStates(diagram.states).map(({ state, parent }) => {
    const m = measured.get(state.id) as Measured;
    const box = move(boxes.get(state.id) as Box);
    const out: StateLayout = { id: state.id, shape: m.shape, box, parent: parent?.id };
    if (m.label) {
      const textH = m.label.box.height + (m.sublabel ? 2 + m.sublabel.box.height : 0);
      const composite = m.shape === "composite";
      const ty = composite ? box.y + LM.statePadY : box.y + (box.height - textH) / 2;
      const centre = (b: TextBlock) => box.x + (box.width - b.box.width) / 2;
      out.label = place(m.label, composite ? box.x + LM.statePadX : centre(m.label), ty);
      if (m.sublabel) {
        const sx = composite ? box.x + LM.statePadX : centre(m.sublabel);
        out.sublabel = place(m.sublabel, sx, ty + m.label.box.height + 2);
      }
      if (composite) {
        out.header = {
          x: box.x,
          y: box.y,
          width: box.width,
          height: round(textH + 2 * LM.statePadY),
        };
      }
    }
    return out;
  });

  const transitions: TransitionLayout[] = diagram.transitions.map((t, index) => {
    const e = laidEdges.get(`t${index}`) as ElkEdge;
    const points = sectionPoints(e).map(pt);
    const tip = points[points.length - 1] as Point;
    const before = points[points.length - 2] as Point;
    const len = Math.hypot(tip.x - before.x, tip.y - before.y) || 1;
    const out: TransitionLayout = {
      id: t.id ?? `t${index}`,
      index,
      from: t.from,
      to: t.to,
      role: t.role ?? "main",
      points,
      arrow: { tip, dx: round((tip.x - before.x) / len), dy: round((tip.y - before.y) / len) },
    };
    const block = labels.get(`t${index}`);
    const placed = e.labels?.[0];
    if (block && placed) {
      const bg = move({
        x: placed.x ?? 0,
        y: placed.y ?? 0,
        width: placed.width,
        height: placed.height,
      });
      const text = place(
        block,
        bg.x + (bg.width - block.box.width) / 2,
        bg.y + (bg.height - block.box.height) / 2,
      );
      out.label = { ...text, background: bg };
    }
    return out;
  });

  const notes: NoteLayout[] = (diagram.notes ?? []).map((note, i) => {
    const box = move(boxes.get(`note${i}`) as Box);
    const text = place(noteBlocks[i] as TextBlock, box.x + LM.notePad, box.y + LM.notePad);
    const link = sectionPoints(laidEdges.get(`n${i}`) as ElkEdge).map(pt);
    return { id: note.id ?? `note${i}`, state: note.state, box, text, link };
  });

  const contentW = Math.max(graphW, title.box.width, subtitle?.box.width ?? 0) + 2 * M.margin;
  const contentH = top + graphH + M.margin;
  const requested = diagram.meta.viewBox;
  const width = requested ? requested[0] : contentW;
  const height = requested ? requested[1] : contentH;
  const scale = Math.min(1, width / contentW, height / contentH);
  const layout: LifecycleLayout = {
    meta: diagram.meta,
    width: round(width),
    height: round(height),
    scale: round(scale * 10000) / 10000,
    offset: { x: round((width - contentW * scale) / 2), y: round((height - contentH * scale) / 2) },
    title,
    states,
    transitions,
    notes,
  };
  if (subtitle) layout.subtitle = subtitle;
  return layout;
}

function findChildren(nodes: ElkNode[], id: string): ElkNode[] | undefined {
  for (const n of nodes) {
    if (n.id === id) return n.children;
    const found = n.children ? findChildren(n.children, id) : undefined;
    if (found) return found;
  }
  return undefined;
}

function sectionPoints(edge: ElkEdge): Point[] {
  const s = edge.sections?.[0];
  if (!s) return [];
  return [s.startPoint, ...(s.bendPoints ?? []), s.endPoint];
}
