import type { DiagramType } from "../../core/diagram-type.js";
import { hints } from "./hints.js";
import { interaction } from "./interaction.js";
import { layoutDiagram, layoutWarnings } from "./layout/index.js";
import type { Layout } from "./layout/types.js";
import type { WorkflowDiagram } from "./model.js";
import { renderLayoutSvg } from "./render.js";
import { ruleProblems, viewTargets } from "./rules.js";
import { schema } from "./schema.js";
import { STARTER } from "./starter.js";

/** Workflow diagrams: lanes and columns, nodes placed in cells, routed edges, a main path. */
export const type: DiagramType<WorkflowDiagram, Layout> = {
  name: "workflow",
  schema,
  hints,
  rules: ruleProblems,
  viewTargets,
  layout: layoutDiagram,
  warnings: layoutWarnings,
  render: renderLayoutSvg,
  interaction,
  starter: STARTER,
};
