/**
 * A flowchart → an architecture description: subgraphs as boundaries, shapes (or classes
 * naming a kind) as element kinds, edges as relationships, dotted ones async.
 */
import {
  type ArchitectureDiagram,
  type Boundary,
  ELEMENT_KINDS,
  type Element,
  type ElementKind,
  type Relationship,
} from "../../types/architecture/model.js";
import {
  applyDiagramNote,
  applyNote,
  type ImportIssue,
  idReader,
  type Scanned,
} from "../source.js";
import { DIRECTION_OF, kindOf, reportEdge, reportShape, reportUnusedClasses } from "./common.js";
import type { Flowchart, Shape } from "./parse.js";

/** Each kind's shape when exported; the importer reads these (and a few more) back. */
export const KIND_SHAPE: Record<ElementKind, Shape> = {
  person: "circle",
  software_system: "hexagon",
  container: "rect",
  component: "round",
  database: "cylinder",
  queue: "asymmetric",
  external_system: "subroutine",
};

export const SHAPE_KIND: Record<Shape, ElementKind> = {
  rect: "container",
  round: "component",
  stadium: "software_system",
  hexagon: "software_system",
  subroutine: "external_system",
  cylinder: "database",
  circle: "person",
  doublecircle: "person",
  asymmetric: "queue",
  rhombus: "component",
  parallelogram: "container",
  trapezoid: "container",
};

const READ_SHAPES: Shape[] = Object.keys(SHAPE_KIND).filter(
  (s) => !["rhombus", "parallelogram", "trapezoid"].includes(s),
) as Shape[];

const ALIASES: Record<string, ElementKind> = {
  db: "database",
  system: "software_system",
  external: "external_system",
  user: "person",
  actor: "person",
  service: "container",
};

export function fromFlowchart(
  chart: Flowchart,
  scanned: Scanned,
  title: string,
): { diagram: ArchitectureDiagram; issues: ImportIssue[] } {
  const issues = chart.issues;
  const idOf = idReader(scanned.ids, issues);
  const boundaries = new Map<string, Boundary>();
  const top: Boundary[] = [];
  for (const sub of chart.subgraphs) {
    const b = applyNote(
      { id: idOf(sub.id, sub.at), label: sub.title ?? sub.id } as Boundary,
      sub.note,
    );
    boundaries.set(sub.id, b);
    const parent = sub.parent ? boundaries.get(sub.parent) : undefined;
    if (parent) parent.boundaries = [...(parent.boundaries ?? []), b];
    else top.push(b);
  }
  const elements: Element[] = [];
  for (const n of chart.nodes) {
    const kind = kindOf(n, ELEMENT_KINDS, SHAPE_KIND, ALIASES);
    reportShape(n, READ_SHAPES, issues, kind);
    const e = applyNote({ id: idOf(n.id, n.at), kind, label: n.text || n.id } as Element, n.note);
    const inside = n.subgraph ? boundaries.get(n.subgraph) : undefined;
    if (inside) inside.elements = [...(inside.elements ?? []), e];
    else elements.push(e);
  }
  reportUnusedClasses(
    chart,
    (c) => (ELEMENT_KINDS as readonly string[]).includes(c) || c.toLowerCase() in ALIASES,
    issues,
  );
  const relationships: Relationship[] = [];
  for (const e of chart.edges) {
    if (!reportEdge(e, issues, false)) continue;
    const r: Relationship = { from: idOf(e.from, e.at), to: idOf(e.to, e.at) };
    if (e.text) r.label = e.text;
    if (e.line === "dotted") r.kind = "async";
    relationships.push(applyNote(r, e.note));
  }
  const diagram: ArchitectureDiagram = {
    schema_version: 2,
    diagram_type: "architecture",
    meta: { title: scanned.title || title, direction: DIRECTION_OF[chart.direction] },
  };
  if (elements.length > 0) diagram.elements = elements;
  if (top.length > 0) diagram.boundaries = top;
  if (relationships.length > 0) diagram.relationships = relationships;
  return { diagram: applyDiagramNote(diagram, scanned), issues };
}
