import type { DiagramType } from "../../core/diagram-type.js";
import { interaction } from "./interaction.js";
import { type DataFlowLayout, layoutDataFlow } from "./layout.js";
import type { DataFlowDiagram } from "./model.js";
import { renderDataFlow } from "./render.js";
import { boundariesReport } from "./report-boundaries.js";
import { dataFlowRuleProblems, viewTargets } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";

/** Data-flow diagrams: entities, processes and stores, classified flows, trust boundaries. */
export const type: DiagramType<DataFlowDiagram, DataFlowLayout> = {
  name: "data-flow",
  schema,
  rules: dataFlowRuleProblems,
  viewTargets,
  layout: layoutDataFlow,
  render: renderDataFlow,
  interaction,
  starter,
  reports: { boundaries: boundariesReport },
};
