import type { Interaction, TraceStep } from "../../core/diagram-type.js";
import type { Layout } from "./layout/types.js";
import type { WorkflowDiagram } from "./model.js";

/**
 * The HTML trace walks mainPath: each node, then the first edge (in drawing order) from it to
 * the next node, if there is one. Cards open on their node.
 */
export function interaction(diagram: WorkflowDiagram, layout: Layout): Interaction {
  const path = diagram.mainPath ?? [];
  const trace: TraceStep[] = [];
  if (path.length >= 2) {
    path.forEach((id, i) => {
      if (i > 0) {
        const from = path[i - 1];
        const edge = layout.edges.find((e) => e.edge.from === from && e.edge.to === id);
        if (edge) trace.push({ kind: "edge", id: edge.id });
      }
      trace.push({ kind: "node", id });
    });
  }
  return {
    trace,
    traceLabel: "Trace main path",
    ...(diagram.cards ? { cards: diagram.cards } : {}),
  };
}
