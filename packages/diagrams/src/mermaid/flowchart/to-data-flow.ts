/**
 * A flowchart → a data-flow description: subgraphs as trust boundaries, rectangles as external
 * entities, rounded shapes as processes, cylinders as stores, edges as flows. Mermaid has no
 * classification; flows without one are marked internal and reported.
 */
import {
  type DataFlowDiagram,
  ELEMENT_KINDS,
  type Element,
  type ElementKind,
  type Flow,
  type TrustBoundary,
} from "../../types/data-flow/model.js";
import {
  applyDiagramNote,
  applyNote,
  type ImportIssue,
  idReader,
  type Scanned,
} from "../source.js";
import { DIRECTION_OF, kindOf, reportEdge, reportShape, reportUnusedClasses } from "./common.js";
import type { Flowchart, Shape } from "./parse.js";

export const KIND_SHAPE: Record<ElementKind, Shape> = {
  entity: "rect",
  process: "round",
  store: "cylinder",
};

export const SHAPE_KIND: Record<Shape, ElementKind> = {
  rect: "entity",
  subroutine: "entity",
  round: "process",
  stadium: "process",
  circle: "process",
  doublecircle: "process",
  cylinder: "store",
  asymmetric: "entity",
  rhombus: "process",
  hexagon: "process",
  parallelogram: "store",
  trapezoid: "entity",
};

const READ_SHAPES: Shape[] = [
  "rect",
  "subroutine",
  "round",
  "stadium",
  "circle",
  "doublecircle",
  "cylinder",
];
const ALIASES: Record<string, ElementKind> = {
  external: "entity",
  actor: "entity",
  user: "entity",
  datastore: "store",
  database: "store",
  db: "store",
  service: "process",
};

export function fromFlowchart(
  chart: Flowchart,
  scanned: Scanned,
  title: string,
): { diagram: DataFlowDiagram; issues: ImportIssue[] } {
  const issues = chart.issues;
  const idOf = idReader(scanned.ids, issues);
  const boundaries: TrustBoundary[] = chart.subgraphs.map((sub) => {
    const b: TrustBoundary = { id: idOf(sub.id, sub.at), label: sub.title ?? sub.id };
    if (sub.parent) b.boundary = idOf(sub.parent, sub.at);
    return applyNote(b, sub.note);
  });
  const elements: Element[] = chart.nodes.map((n) => {
    const kind = kindOf(n, ELEMENT_KINDS, SHAPE_KIND, ALIASES);
    reportShape(n, READ_SHAPES, issues, kind);
    const e: Element = { id: idOf(n.id, n.at), kind, label: n.text || n.id };
    if (n.subgraph) e.boundary = idOf(n.subgraph, n.at);
    return applyNote(e, n.note);
  });
  reportUnusedClasses(
    chart,
    (c) => (ELEMENT_KINDS as readonly string[]).includes(c) || c.toLowerCase() in ALIASES,
    issues,
  );
  const flows: Flow[] = [];
  for (const e of chart.edges) {
    if (!reportEdge(e, issues, false)) continue;
    const f = { from: idOf(e.from, e.at), to: idOf(e.to, e.at), label: e.text ?? "" } as Flow;
    applyNote(f, e.note);
    const say = (message: string) =>
      issues.push({ ...e.at, message: `${e.from} → ${e.to}: ${message}` });
    if (e.line === "dotted") say("dotted line not carried over (flows have one line style)");
    if (!f.label) {
      f.label = "data";
      say('no label; the flow is labelled "data"');
    }
    if (!f.classification) {
      f.classification = "internal";
      say("no classification in Mermaid; marked internal");
    }
    flows.push(f);
  }
  const diagram: DataFlowDiagram = {
    schema_version: 2,
    diagram_type: "data-flow",
    meta: { title: scanned.title || title, direction: DIRECTION_OF[chart.direction] },
    elements,
    flows,
  };
  if (boundaries.length > 0) diagram.boundaries = boundaries;
  return { diagram: applyDiagramNote(diagram, scanned), issues };
}
