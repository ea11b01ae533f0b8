import type { DiagramType } from "../../core/diagram-type.js";
import { interaction } from "./interaction.js";
import { type LifecycleLayout, layoutLifecycle } from "./layout.js";
import type { LifecycleDiagram } from "./model.js";
import { renderLifecycle } from "./render.js";
import { lifecycleRuleProblems, viewTargets } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";

/**
 * Lifecycle (state machine) diagrams: states (composite, initial, final, choice, fork and join
 * too), transitions and notes, laid out in layers by the graph layout.
 */
export const type: DiagramType<LifecycleDiagram, LifecycleLayout> = {
  name: "lifecycle",
  schema,
  rules: lifecycleRuleProblems,
  viewTargets,
  layout: layoutLifecycle,
  render: renderLifecycle,
  interaction,
  starter,
};
