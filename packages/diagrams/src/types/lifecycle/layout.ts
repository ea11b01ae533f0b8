import { fitToViewBox } from "../../core/fit.js";
import { type Box, round } from "../../core/geometry.js";
import {
  type GraphEdge,
  type GraphNode,
  type LaidEdge,
  layoutGraph,
} from "../../core/graph-layout.js";
import { labelOn, stackedLabel } from "../../core/line-label.js";
import type { EdgeRole, Point } from "../../core/model.js";
import type { ArrowLine } from "../../core/svg/boxes.js";
import type { Frame } from "../../core/svg/document.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { placeHeading } from "../../core/text/heading.js";
import { arrowAt, translateBy } from "../../core/translate.js";
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

export interface TransitionLayout extends ArrowLine {
  /** The transition's id, or `t<index>` when the description gives none. */
  id: string;
  index: number;
  from: string;
  to: string;
  role: EdgeRole;
}

export interface NoteLayout {
  id: string;
  state: string;
  box: Box;
  text: TextBlock;
  /** The dashed connector from the note to its state. */
  link: Point[];
}

export interface LifecycleLayout extends Frame {
  meta: LifecycleMeta;
  /** Composite states come before the states they hold (drawing order). */
  states: StateLayout[];
  transitions: TransitionLayout[];
  notes: NoteLayout[];
}

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

const SPACING = { node: LM.nodeGap, edge: 14, layer: LM.layerGap } as const;

/**
 * Lays out a validated lifecycle description with the layered graph layout (core/graph-layout):
 * composite states hold their children, transitions may cross their borders, label boxes are
 * measured here so the layout keeps them clear of states and of each other. Every number is
 * rounded, so the same description gives the same SVG on every machine.
 */
export async function layoutLifecycle(diagram: LifecycleDiagram): Promise<LifecycleLayout> {
  const M = LM;
  const measured = new Map<string, Measured>();
  const parents = new Map<string, string | undefined>();
  for (const { state, parent } of allStates(diagram.states)) {
    measured.set(state.id, measureState(state));
    parents.set(state.id, parent?.id);
  }
  const toNode = (state: State): GraphNode => {
    const m = measured.get(state.id) as Measured;
    const node: GraphNode = { id: state.id, width: m.width, height: m.height };
    // Read from the start: initial states open their region, final states close it.
    if (m.shape === "initial") node.rank = "first";
    if (m.shape === "final") node.rank = "last";
    if (m.shape === "composite") {
      node.children = (state.states ?? []).map(toNode);
      node.padding = {
        top: m.height - LM.statePadY + LM.compositeHeaderGap,
        left: LM.compositePad,
        bottom: LM.compositePad,
        right: LM.compositePad,
      };
    }
    return node;
  };
  const children = diagram.states.map(toNode);
  const labels = new Map<string, TextBlock>();
  const edges: GraphEdge[] = diagram.transitions.map((t, index) => {
    const id = `t${index}`;
    const lines = transitionText(t);
    const edge: GraphEdge = { id, from: t.from, to: t.to };
    if (lines.length > 0) {
      const block = stackedLabel(lines, LM.edgeLabelSize, LM.labelMaxWidth);
      labels.set(id, block);
      edge.label = {
        width: block.box.width + 2 * LM.labelPad,
        height: block.box.height + 2 * LM.labelPad,
      };
    }
    return edge;
  });
  const noteBlocks = (diagram.notes ?? []).map((n) =>
    textBlock(n.text, M.sublabelSize, "regular", LM.noteMaxWidth, 8),
  );
  (diagram.notes ?? []).forEach((note, i) => {
    const block = noteBlocks[i] as TextBlock;
    const node: GraphNode = {
      id: `note${i}`,
      width: Math.ceil(block.box.width + 2 * LM.notePad + 8),
      height: Math.ceil(block.box.height + 2 * LM.notePad),
    };
    // A note sits in its state's region, beside it.
    const parent = parents.get(note.state);
    const holder = (parent === undefined ? undefined : findChildren(children, parent)) ?? children;
    holder.push(node);
    edges.push({ id: `n${i}`, from: node.id, to: note.state });
  });

  const laid = layoutGraph({
    nodes: children,
    edges,
    direction: diagram.direction ?? "right",
    spacing: SPACING,
  });
  const boxes = laid.nodes;
  const laidEdges = laid.edges;

  const graphW = laid.width;
  const graphH = laid.height;
  const { title, subtitle, top } = placeHeading(
    diagram.meta.title,
    diagram.meta.subtitle,
    graphW,
    M,
  );
  const { box: move, point: pt } = translateBy(M.margin, top);

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
    const e = laidEdges.get(`t${index}`) as LaidEdge;
    const points = e.points.map(pt);
    const out: TransitionLayout = {
      id: t.id ?? `t${index}`,
      index,
      from: t.from,
      to: t.to,
      role: t.role ?? "main",
      points,
      arrow: arrowAt(points),
    };
    const block = labels.get(`t${index}`);
    const placed = e.label;
    if (block && placed) out.label = labelOn(block, move(placed));
    return out;
  });

  const notes: NoteLayout[] = (diagram.notes ?? []).map((note, i) => {
    const box = move(boxes.get(`note${i}`) as Box);
    const text = place(noteBlocks[i] as TextBlock, box.x + LM.notePad, box.y + LM.notePad);
    const link = (laidEdges.get(`n${i}`) as LaidEdge).points.map(pt);
    return { id: note.id ?? `note${i}`, state: note.state, box, text, link };
  });

  const contentW = Math.max(graphW, title.box.width, subtitle?.box.width ?? 0) + 2 * M.margin;
  const contentH = top + graphH + M.margin;
  const layout: LifecycleLayout = {
    meta: diagram.meta,
    ...fitToViewBox(contentW, contentH, diagram.meta.viewBox),
    title,
    states,
    transitions,
    notes,
  };
  if (subtitle) layout.subtitle = subtitle;
  return layout;
}

function findChildren(nodes: GraphNode[], id: string): GraphNode[] | undefined {
  for (const n of nodes) {
    if (n.id === id) return n.children;
    const found = n.children ? findChildren(n.children, id) : undefined;
    if (found) return found;
  }
  return undefined;
}
