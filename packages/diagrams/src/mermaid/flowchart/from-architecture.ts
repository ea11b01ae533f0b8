/**
 * An architecture description → a Mermaid flowchart: boundaries as subgraphs, each element kind
 * its own shape, async relationships dotted; the rest in `%% @orderline` annotations.
 */
import {
  type ArchitectureDiagram,
  type Boundary,
  type Element,
  type Relationship,
  walkDiagram,
} from "../../types/architecture/model.js";
import { annotationFor, annotationLine, carried, encodeText, mermaidIds } from "../source.js";
import { DIRECTION_OF, edgeLine, flowchartText, MERMAID_DIRECTION, nodeLine } from "./common.js";
import { KIND_SHAPE } from "./to-architecture.js";

export function exportArchitecture(d: ArchitectureDiagram): string {
  const walked = walkDiagram(d);
  const ids = mermaidIds([
    ...walked.elements.map((e) => e.element.id),
    ...walked.boundaries.map((b) => b.boundary.id),
  ]);
  const direction = MERMAID_DIRECTION[d.meta.direction ?? "right"];
  const body: string[] = [];
  const element = (e: Element, indent: string) => {
    const read = { id: e.id, kind: e.kind, label: e.label };
    body.push(...annotationLine(indent, annotationFor(e, read)));
    body.push(`${indent}${nodeLine(ids.of(e.id), KIND_SHAPE[e.kind], e.label)}`);
  };
  const boundary = (b: Boundary, indent: string) => {
    const read = { id: b.id, label: b.label, elements: b.elements, boundaries: b.boundaries };
    body.push(...annotationLine(indent, annotationFor(b, read)));
    body.push(`${indent}subgraph ${ids.of(b.id)}["${encodeText(b.label)}"]`);
    for (const e of b.elements ?? []) element(e, `${indent}  `);
    for (const inner of b.boundaries ?? []) boundary(inner, `${indent}  `);
    body.push(`${indent}end`);
  };
  for (const e of d.elements ?? []) element(e, "  ");
  for (const b of d.boundaries ?? []) boundary(b, "  ");
  for (const r of d.relationships ?? []) {
    const read: Relationship = { from: r.from, to: r.to };
    if (r.label) read.label = r.label;
    if (r.kind === "async") read.kind = "async";
    body.push(...annotationLine("  ", annotationFor(r, read)));
    body.push(
      `  ${edgeLine(ids.of(r.from), ids.of(r.to), r.kind === "async" ? "-.->" : "-->", r.label)}`,
    );
  }
  const read = {
    ...carried(d, ["elements", "boundaries", "relationships"]),
    meta: { title: d.meta.title, direction: DIRECTION_OF[direction] },
  };
  return flowchartText(d, `flowchart ${direction}`, ids.back, read, body);
}
