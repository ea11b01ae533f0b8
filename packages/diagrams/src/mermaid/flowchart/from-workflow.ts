/**
 * A workflow description → a Mermaid flowchart: lanes as subgraphs, each step with its type's
 * shape and class, emphasis edges thick, dashed ones dotted; columns, phases, groups, routes,
 * cards and checks in `%% @orderline` annotations.
 */
import type { DiagramNode, Edge, WorkflowDiagram } from "../../types/workflow/model.js";
import { annotationFor, annotationLine, carried, encodeText, mermaidIds } from "../source.js";
import { classDefLines, edgeLine, flowchartText, nodeLine } from "./common.js";
import { TYPE_SHAPE } from "./to-workflow.js";

const FILL: Record<string, string> = {
  frontend: "#e3f2fd",
  backend: "#e8f5e9",
  database: "#fff3e0",
  storage: "#fff3e0",
  cloud: "#f3e5f5",
  security: "#ffebee",
  messagebus: "#fffde7",
  queue: "#fffde7",
  external: "#eceff1",
  user: "#eceff1",
};

export function exportWorkflow(d: WorkflowDiagram): string {
  const ids = mermaidIds([...d.nodes.map((n) => n.id), ...d.lanes.map((l) => l.id)]);
  const body: string[] = [];
  const classes: string[] = [];
  // Steps first, in the description's order; naming them again inside a lane's subgraph is
  // what places them there.
  const incoming = new Set(d.edges.map((e) => e.to));
  for (const n of d.nodes) {
    // Start and end read from the stadium shape and the edges ("end" is a Mermaid keyword,
    // so it cannot be a class); service is the plain rectangle's default.
    const byShape = n.type === "service" || n.type === "start" || n.type === "end";
    const cls = byShape ? undefined : n.type;
    const shapeType =
      TYPE_SHAPE[n.type] === "stadium" ? (incoming.has(n.id) ? "end" : "start") : "service";
    const read: Partial<DiagramNode> = {
      id: n.id,
      lane: n.lane,
      type: cls ?? shapeType,
      label: n.label,
    };
    if (cls) classes.push(cls);
    body.push(...annotationLine("  ", annotationFor(n, read)));
    body.push(`  ${nodeLine(ids.of(n.id), TYPE_SHAPE[n.type] ?? "rect", n.label, cls)}`);
  }
  for (const lane of d.lanes) {
    body.push(...annotationLine("  ", annotationFor(lane, { id: lane.id, label: lane.label })));
    body.push(`  subgraph ${ids.of(lane.id)}["${encodeText(lane.label)}"]`);
    for (const n of d.nodes) if (n.lane === lane.id) body.push(`    ${ids.of(n.id)}`);
    body.push("  end");
  }
  for (const e of d.edges) {
    const read: Edge = { from: e.from, to: e.to };
    if (e.label) read.label = e.label;
    let arrow = "-->";
    if (e.variant === "emphasis" || e.variant === "dashed") {
      read.variant = e.variant;
      arrow = e.variant === "emphasis" ? "==>" : "-.->";
    }
    body.push(...annotationLine("  ", annotationFor(e, read)));
    body.push(`  ${edgeLine(ids.of(e.from), ids.of(e.to), arrow, e.label)}`);
  }
  body.push(...classDefLines(classes, (c) => FILL[c] ?? "#f5f5f5"));
  const read = { ...carried(d, ["lanes", "nodes", "edges"]), meta: { title: d.meta.title } };
  return flowchartText(d, "flowchart LR", ids.back, read, body);
}
