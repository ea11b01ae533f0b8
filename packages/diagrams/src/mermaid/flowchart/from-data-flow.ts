/**
 * A data-flow description → a Mermaid flowchart: trust boundaries as (nested) subgraphs,
 * entities as rectangles, processes rounded, stores as cylinders; classification, protocol and
 * the rest in `%% @orderline` annotations.
 */
import type { DataFlowDiagram, Element, Flow, TrustBoundary } from "../../types/data-flow/model.js";
import { annotationFor, annotationLine, carried, encodeText, mermaidIds } from "../source.js";
import { DIRECTION_OF, edgeLine, flowchartText, MERMAID_DIRECTION, nodeLine } from "./common.js";
import { KIND_SHAPE } from "./to-data-flow.js";

export function exportDataFlow(d: DataFlowDiagram): string {
  const boundaries = d.boundaries ?? [];
  const ids = mermaidIds([...d.elements.map((e) => e.id), ...boundaries.map((b) => b.id)]);
  const direction = MERMAID_DIRECTION[d.meta.direction ?? "right"];
  const body: string[] = [];
  const element = (e: Element, indent: string) => {
    const read: Element = { id: e.id, kind: e.kind, label: e.label };
    if (e.boundary !== undefined) read.boundary = e.boundary;
    body.push(...annotationLine(indent, annotationFor(e, read)));
    body.push(`${indent}${nodeLine(ids.of(e.id), KIND_SHAPE[e.kind], e.label)}`);
  };
  // Elements are declared first, in the description's order, then named again inside their
  // boundary's subgraph (which is what places them there); subgraphs nest inside their parents.
  const boundary = (b: TrustBoundary, indent: string) => {
    const read: TrustBoundary = { id: b.id, label: b.label };
    if (b.boundary !== undefined) read.boundary = b.boundary;
    body.push(...annotationLine(indent, annotationFor(b, read)));
    body.push(`${indent}subgraph ${ids.of(b.id)}["${encodeText(b.label)}"]`);
    for (const e of d.elements) if (e.boundary === b.id) body.push(`${indent}  ${ids.of(e.id)}`);
    for (const inner of boundaries) if (inner.boundary === b.id) boundary(inner, `${indent}  `);
    body.push(`${indent}end`);
  };
  const known = new Set(boundaries.map((b) => b.id));
  for (const e of d.elements) element(e, "  ");
  for (const b of boundaries)
    if (b.boundary === undefined || !known.has(b.boundary)) boundary(b, "  ");
  for (const f of d.flows) {
    const read = { from: f.from, to: f.to, label: f.label } as Flow;
    body.push(...annotationLine("  ", annotationFor(f, read)));
    body.push(`  ${edgeLine(ids.of(f.from), ids.of(f.to), "-->", f.label)}`);
  }
  const read = {
    ...carried(d, ["elements", "flows", "boundaries"]),
    meta: { title: d.meta.title, direction: DIRECTION_OF[direction] },
  };
  return flowchartText(d, `flowchart ${direction}`, ids.back, read, body);
}
