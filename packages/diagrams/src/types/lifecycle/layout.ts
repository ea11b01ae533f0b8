import { fitToViewBox } from "../../core/fit.js";
import { type Box, round } from "../../core/geometry.js";
import { type GraphDrawing, HEAD_LIMIT } from "../../core/graph-check.js";
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
import { labelOn, stackedLabel } from "../../core/line-label.js";
import type { EdgeRole, Point } from "../../core/model.js";
import type { ArrowLine } from "../../core/svg/boxes.js";
import type { Frame } from "../../core/svg/document.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { type DrawnText, textCutWarnings } from "../../core/text/cuts.js";
import { placeHeading } from "../../core/text/heading.js";
import { arrowAt, translateBy } from "../../core/translate.js";
import { joinArrivals } from "../../core/trunk.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import {
  allStates,
  type LifecycleDiagram,
  type LifecycleMeta,
  type State,
  transitionText,
} from "./model.js";
import { ambiguousTransitions } from "./rules.js";

/** Sizes of a lifecycle drawing, in diagram units; every preset shares them. */
const LIFECYCLE_METRICS = {
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
  /** A fork or join bar: long across the flow, thin along it. */
  barLength: 72,
  barThickness: 8,
  labelMaxWidth: 176,
  labelPad: 3,
  noteMaxWidth: 180,
  notePad: 8,
  nodeGap: 32,
  layerGap: 56,
} as const;
const LM = LIFECYCLE_METRICS;

type StateShape = "state" | "composite" | "initial" | "final" | "choice" | "bar";

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
  /** Bars: which pseudo-state the bar is. */
  bar?: "fork" | "join";
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
  /** What the drawing could not keep of its reading promises (core/graph-check). */
  warnings?: UnlocatedProblem[];
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
  // Measured for a top-down drawing; graphNodes turns it for a left-to-right one.
  if (kind === "fork" || kind === "join")
    return { shape: "bar", width: LM.barLength, height: LM.barThickness };
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
  // A state machine reads top-down (as Mermaid draws it) unless that makes it too tall.
  const drawing = (l: LifecycleLayout, checkAspect = false): GraphDrawing => ({
    width: l.width,
    height: l.height,
    edges: l.transitions.map((t) => ({ id: String(t.index), points: t.points })),
    notes: l.notes.map((n, i) => ({
      id: String(i),
      box: n.box,
      of: l.states.find((s) => s.id === n.state)?.box ?? n.box,
    })),
    checkAspect,
  });
  // A left-to-right try is first laid out roughly (sizes only); if kept, it finishes that layout.
  // Every try measures the same text: once is enough.
  const layoutWith = finishingLayouter();
  const text = measureLifecycleText(diagram);
  const layout = chooseDirection(
    diagram.meta.direction,
    "down",
    (d, wrap, rough) => layoutIn(diagram, text, d, wrap, rough, layoutWith),
    drawing,
  );
  const warnings = drawingWarnings(drawing(layout, diagram.meta.direction === undefined), (id) =>
    id === undefined ? "/meta" : `/transitions/${id}`,
  );
  // Note findings point at the note, transition findings at the transition.
  for (const w of warnings)
    if (w.rule === "render/note-distance") w.path = w.path.replace("/transitions/", "/notes/");
  warnings.push(
    ...ambiguousTransitions(diagram),
    ...textCutWarnings(drawnText(diagram, text, layout)),
  );
  if (warnings.length > 0) layout.warnings = warnings;
  return layout;
}

/**
 * A final state is too small for an arrowhead per arrival on one side: arrivals whose heads
 * would overlap there join into one trunk with one arrowhead.
 */
function joinFinalArrivals(layout: LifecycleLayout): void {
  for (const s of layout.states) {
    if (s.shape !== "final") continue;
    const arriving = layout.transitions.filter((t) => t.to === s.id);
    if (arriving.length > 1) joinArrivals(arriving, s.box, HEAD_LIMIT);
  }
}

/** Every text the drawing wraps, with where the description holds it. */
function* drawnText(
  diagram: LifecycleDiagram,
  text: MeasuredText,
  layout: LifecycleLayout,
): Iterable<DrawnText> {
  yield [layout.title, "/meta/title"];
  yield [layout.subtitle, "/meta/subtitle"];
  for (const { state, pointer } of allStates(diagram.states)) {
    const m = text.measured.get(state.id);
    yield [m?.label, state.label === undefined ? `${pointer}/id` : `${pointer}/label`];
    yield [m?.sublabel, `${pointer}/sublabel`];
  }
  for (const [i, block] of text.noteBlocks.entries()) yield [block, `/notes/${i}/text`];
  for (const [i, t] of diagram.transitions.entries()) {
    const parts = (text.labels.get(`t${i}`) as { parts?: TextBlock[] } | undefined)?.parts ?? [];
    const fields = (["event", "guard", "action"] as const).filter((f) => t[f]);
    for (const [k, field] of fields.entries()) yield [parts[k], `/transitions/${i}/${field}`];
  }
}

/** Notes of one state, stacked into the one box laid beside it. */
interface NoteStack {
  side: "start" | "end";
  notes: { index: number; width: number; height: number }[];
}

const NOTE_GAP = 8;

function noteStacks(
  diagram: LifecycleDiagram,
  blocks: TextBlock[],
  direction: GraphDirection,
): Map<string, NoteStack> {
  const horizontal = direction === "right" || direction === "left";
  const stacks = new Map<string, NoteStack>();
  (diagram.notes ?? []).forEach((note, index) => {
    const block = blocks[index] as TextBlock;
    const startSide = horizontal ? "above" : "left";
    const stack = stacks.get(note.state) ?? {
      side: note.side === startSide ? "start" : "end",
      notes: [],
    };
    stack.notes.push({
      index,
      width: Math.ceil(block.box.width + 2 * LM.notePad + 8),
      height: Math.ceil(block.box.height + 2 * LM.notePad),
    });
    stacks.set(note.state, stack);
  });
  return stacks;
}

/** The text of states, notes and transitions, measured (the same in every direction). */
interface MeasuredText {
  measured: Map<string, Measured>;
  noteBlocks: TextBlock[];
  /** Transition labels by edge id. */
  labels: Map<string, TextBlock>;
  edges: GraphEdge[];
}

function measureLifecycleText(diagram: LifecycleDiagram): MeasuredText {
  const measured = new Map<string, Measured>();
  for (const { state } of allStates(diagram.states)) measured.set(state.id, measureState(state));
  const noteBlocks = (diagram.notes ?? []).map((n) =>
    textBlock(n.text, LM.sublabelSize, "regular", LM.noteMaxWidth, 8),
  );
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
  return { measured, noteBlocks, labels, edges };
}

function layoutIn(
  diagram: LifecycleDiagram,
  text: MeasuredText,
  direction: GraphDirection,
  wrap: boolean,
  rough: boolean,
  layoutWith: (input: GraphLayoutInput) => GraphLayout,
): LifecycleLayout {
  const M = LM;
  const { measured, noteBlocks, labels, edges } = text;
  const stacks = noteStacks(diagram, noteBlocks, direction);
  const children = graphNodes(diagram.states, measured, stacks, direction);
  const laid = layoutWith({
    nodes: children,
    edges,
    direction,
    spacing: SPACING,
    wrap,
    rough,
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
    if (state.kind === "fork" || state.kind === "join") out.bar = state.kind;
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
    if (laid.against.has(`t${index}`)) out.against = true;
    return out;
  });

  const notes = placeNotes(diagram, stacks, noteBlocks, (id) => move(boxes.get(id) as Box));
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
  // In every try, so the choice of direction weighs the drawing as it will be drawn.
  joinFinalArrivals(layout);
  return layout;
}

/** The states as graph nodes: composites hold theirs, notes sit beside their state. */
function graphNodes(
  states: State[],
  measured: Map<string, Measured>,
  stacks: Map<string, NoteStack>,
  direction: GraphDirection,
): GraphNode[] {
  const across = direction === "right" || direction === "left";
  const toNode = (state: State): GraphNode => {
    const m = measured.get(state.id) as Measured;
    // A bar lies across the flow, whichever way the flow runs.
    const turn = m.shape === "bar" && across;
    const node: GraphNode = {
      id: state.id,
      width: turn ? m.height : m.width,
      height: turn ? m.width : m.height,
    };
    // Read from the start: initial states open their region, final states close it.
    if (m.shape === "initial") node.rank = "first";
    if (m.shape === "final") node.rank = "last";
    if (m.shape === "final" || m.shape === "choice") node.joinArrivals = true;
    if (m.shape === "composite") {
      node.children = (state.states ?? []).map(toNode);
      node.padding = {
        top: m.height - LM.statePadY + LM.compositeHeaderGap,
        left: LM.compositePad,
        bottom: LM.compositePad,
        right: LM.compositePad,
      };
    }
    const stack = stacks.get(state.id);
    if (stack) {
      // A note sits beside its state, across the flow: its transitions never pass between.
      node.beside = {
        id: `notes:${state.id}`,
        side: stack.side,
        width: Math.max(...stack.notes.map((n) => n.width)),
        height: stack.notes.reduce((h, n) => h + n.height, NOTE_GAP * (stack.notes.length - 1)),
      };
    }
    return node;
  };
  return states.map(toNode);
}

/** Each note in its stack's box beside its state, with a short dashed link to the state. */
function placeNotes(
  diagram: LifecycleDiagram,
  stacks: Map<string, NoteStack>,
  blocks: TextBlock[],
  boxOf: (id: string) => Box,
): NoteLayout[] {
  const out: NoteLayout[] = [];
  for (const [stateId, stack] of stacks) {
    const holder = boxOf(`notes:${stateId}`);
    const state = boxOf(stateId);
    let y = holder.y;
    for (const n of stack.notes) {
      const note = (diagram.notes ?? [])[n.index] as NonNullable<LifecycleDiagram["notes"]>[number];
      const box = { x: holder.x, y: round(y), width: n.width, height: n.height };
      y += n.height + NOTE_GAP;
      const text = place(blocks[n.index] as TextBlock, box.x + LM.notePad, box.y + LM.notePad);
      out[n.index] = {
        id: note.id ?? `note${n.index}`,
        state: stateId,
        box,
        text,
        link: noteLink(box, state),
      };
    }
  }
  return out;
}

/** The straight link between a note and its state, across the gap between their facing sides. */
function noteLink(note: Box, state: Box): Point[] {
  const lo = Math.max(note.y, state.y);
  const hi = Math.min(note.y + note.height, state.y + state.height);
  if (hi > lo) {
    const y = round((lo + hi) / 2);
    return note.x > state.x
      ? [
          { x: note.x, y },
          { x: state.x + state.width, y },
        ]
      : [
          { x: note.x + note.width, y },
          { x: state.x, y },
        ];
  }
  const xlo = Math.max(note.x, state.x);
  const xhi = Math.min(note.x + note.width, state.x + state.width);
  const x = round(xhi > xlo ? (xlo + xhi) / 2 : note.x + note.width / 2);
  return note.y > state.y
    ? [
        { x, y: note.y },
        { x, y: state.y + state.height },
      ]
    : [
        { x, y: note.y + note.height },
        { x, y: state.y },
      ];
}
