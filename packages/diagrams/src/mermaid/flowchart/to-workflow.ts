/**
 * A flowchart → a workflow description: top-level subgraphs as lanes (nodes outside every
 * subgraph in a "Main" lane), columns from the longest path to each node (at most 6), types
 * from classes naming a component type or from the shape, thick edges as emphasis, dotted ones
 * dashed.
 */
import { COMPONENT_TYPES, type ComponentType } from "../../core/model.js";
import type { DiagramNode, Edge, Lane, WorkflowDiagram } from "../../types/workflow/model.js";
import {
  applyDiagramNote,
  applyNote,
  type ImportIssue,
  idReader,
  type Scanned,
} from "../source.js";
import { reportEdge, reportShape, reportUnusedClasses } from "./common.js";
import type { Flowchart, FlowNode, Shape } from "./parse.js";

/** The shape each component type is written with; the rest are rectangles with their class. */
export const TYPE_SHAPE: Partial<Record<ComponentType, Shape>> = {
  database: "cylinder",
  storage: "cylinder",
  decision: "rhombus",
  start: "stadium",
  end: "stadium",
  queue: "asymmetric",
  external: "subroutine",
  user: "circle",
};

const READ_SHAPES: Shape[] = [
  "rect",
  "round",
  "cylinder",
  "rhombus",
  "stadium",
  "circle",
  "doublecircle",
  "asymmetric",
  "subroutine",
];
const LAST_COL = 5;

function typeOf(n: FlowNode, incoming: number): ComponentType {
  for (const c of n.classes)
    if ((COMPONENT_TYPES as readonly string[]).includes(c)) return c as ComponentType;
  switch (n.shape) {
    case "cylinder":
      return "database";
    case "rhombus":
      return "decision";
    case "stadium":
    case "circle":
    case "doublecircle":
      return incoming === 0 ? "start" : "end";
    case "asymmetric":
      return "queue";
    case "subroutine":
      return "external";
    default:
      return "service";
  }
}

/** Each node's column: the longest chain of edges leading to it, cycles broken where met. */
function columns(nodes: string[], edges: { from: string; to: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  // Back edges found by a depth-first walk are left out, so the rest is acyclic.
  const state = new Map<string, 1 | 2>();
  const forward: [string, string][] = [];
  const visit = (n: string) => {
    state.set(n, 1);
    for (const m of next.get(n) ?? []) {
      if (state.get(m) === 1) continue;
      forward.push([n, m]);
      if (!state.has(m)) visit(m);
    }
    state.set(n, 2);
  };
  for (const n of nodes) if (!state.has(n)) visit(n);
  for (const n of nodes) out.set(n, 0);
  for (let changed = true, rounds = 0; changed && rounds <= nodes.length; rounds++) {
    changed = false;
    for (const [a, b] of forward) {
      const want = (out.get(a) ?? 0) + 1;
      if (want > (out.get(b) ?? 0)) {
        out.set(b, want);
        changed = true;
      }
    }
  }
  return out;
}

export function fromFlowchart(
  chart: Flowchart,
  scanned: Scanned,
  title: string,
): { diagram: WorkflowDiagram; issues: ImportIssue[] } {
  const issues = chart.issues;
  const idOf = idReader(scanned.ids, issues);
  const lanes: Lane[] = [];
  const laneOf = new Map<string, string>();
  const subgraphs = new Map(chart.subgraphs.map((s) => [s.id, s]));
  for (const sub of chart.subgraphs) {
    let outer = sub;
    while (outer.parent && subgraphs.get(outer.parent))
      outer = subgraphs.get(outer.parent) as typeof sub;
    laneOf.set(sub.id, idOf(outer.id, outer.at));
    if (outer !== sub) {
      issues.push({
        ...sub.at,
        message: `nested subgraph "${sub.id}" not carried over; its nodes join lane "${outer.id}"`,
      });
      continue;
    }
    lanes.push(
      applyNote({ id: idOf(sub.id, sub.at), label: sub.title ?? sub.id } as Lane, sub.note),
    );
  }
  const nodeIds = new Set(chart.nodes.map((n) => n.id));
  const edges: Edge[] = [];
  for (const e of chart.edges) {
    if (!nodeIds.has(e.from) || !nodeIds.has(e.to)) {
      issues.push({
        ...e.at,
        message: `${e.from} → ${e.to}: an edge to a subgraph not carried over (workflow edges join steps)`,
      });
      continue;
    }
    if (!reportEdge(e, issues, true)) continue;
    const edge: Edge = { from: idOf(e.from, e.at), to: idOf(e.to, e.at) };
    if (e.text) edge.label = e.text;
    if (e.line === "thick") edge.variant = "emphasis";
    if (e.line === "dotted") edge.variant = "dashed";
    edges.push(applyNote(edge, e.note));
  }
  const cols = columns(
    chart.nodes.map((n) => n.id),
    chart.edges.filter((e) => e.line !== "invisible"),
  );
  const incoming = new Map<string, number>();
  for (const e of chart.edges) incoming.set(e.to, (incoming.get(e.to) ?? 0) + 1);
  let main: Lane | undefined;
  const nodes: DiagramNode[] = chart.nodes.map((n) => {
    let lane = n.subgraph ? laneOf.get(n.subgraph) : undefined;
    if (!lane) {
      if (!main) {
        main = { id: lanes.some((l) => l.id === "main") ? "main_lane" : "main", label: "Main" };
        lanes.push(main);
      }
      lane = main.id;
    }
    const type = typeOf(n, incoming.get(n.id) ?? 0);
    reportShape(n, READ_SHAPES, issues, type);
    let col = cols.get(n.id) ?? 0;
    if (col > LAST_COL && !n.note?.col) {
      issues.push({
        ...n.at,
        message: `${n.id}: column ${col + 1} is beyond the sixth (a workflow has at most 6 columns); placed in the sixth`,
      });
      col = LAST_COL;
    }
    return applyNote(
      { id: idOf(n.id, n.at), lane, col, type, label: n.text || n.id } as DiagramNode,
      n.note,
    );
  });
  shareNoCell(nodes, lanes, chart.nodes, issues);
  reportUnusedClasses(chart, (c) => (COMPONENT_TYPES as readonly string[]).includes(c), issues);
  const diagram: WorkflowDiagram = {
    schema_version: 2,
    diagram_type: "workflow",
    meta: { title: scanned.title || title },
    lanes,
    nodes,
    edges,
  };
  if (chart.direction !== "LR") {
    issues.push({
      line: scanned.header?.line ?? 1,
      col: scanned.header?.col ?? 1,
      message: `direction ${chart.direction} not carried over (workflow lanes run left to right)`,
    });
  }
  return { diagram: applyDiagramNote(diagram, scanned), issues };
}

/**
 * A workflow cell (lane × column) holds one step: a step whose column is taken moves to the
 * nearest free column of its lane (later ones first); when the lane is full it goes to an
 * overflow lane after it, which is reported. Steps placed by an annotation keep their cell.
 */
function shareNoCell(
  nodes: DiagramNode[],
  lanes: Lane[],
  source: FlowNode[],
  issues: ImportIssue[],
): void {
  const taken = new Map<string, Set<number>>();
  const cells = (lane: string) => {
    const set = taken.get(lane) ?? new Set<number>();
    taken.set(lane, set);
    return set;
  };
  const free = (lane: string, col: number) => {
    const set = cells(lane);
    for (let c = col; c <= LAST_COL; c++) if (!set.has(c)) return c;
    for (let c = col - 1; c >= 0; c--) if (!set.has(c)) return c;
    return undefined;
  };
  nodes.forEach((n, i) => {
    if (source[i]?.note?.col !== undefined) cells(n.lane).add(n.col);
  });
  nodes.forEach((n, i) => {
    const from = source[i] as FlowNode;
    if (from.note?.col !== undefined) return;
    let lane = n.lane;
    let col = free(lane, n.col);
    while (col === undefined) {
      const overflow = `${lane}_more`;
      if (!lanes.some((l) => l.id === overflow)) {
        const at = lanes.findIndex((l) => l.id === lane);
        const label = `${lanes[at]?.label ?? lane} (more)`;
        lanes.splice(at + 1, 0, { id: overflow, label });
      }
      issues.push({
        ...from.at,
        message: `${from.id}: lane "${n.lane}" has no free column; placed in lane "${overflow}"`,
      });
      lane = overflow;
      col = free(lane, n.col);
    }
    n.lane = lane;
    n.col = col;
    cells(lane).add(col);
  });
}
