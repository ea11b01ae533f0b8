import type { Interaction, TraceStep } from "../../core/diagram-type.js";
import type { DataFlowLayout } from "./layout.js";
import type { DataFlowDiagram } from "./model.js";

/**
 * The HTML trace plays the flows in document order (the order the description tells the story
 * in): the first flow's source, then each flow with the element it reaches.
 */
export function interaction(_diagram: DataFlowDiagram, layout: DataFlowLayout): Interaction {
  const trace: TraceStep[] = [];
  const first = layout.flows[0];
  if (first) trace.push({ kind: "node", id: first.from });
  for (const f of layout.flows) trace.push({ kind: "edge", id: f.id }, { kind: "node", id: f.to });
  return { trace, traceLabel: "Play the data flows" };
}
