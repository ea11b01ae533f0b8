import type { DiagramType } from "../../core/diagram-type.js";
import { type LifecycleLayout, layoutLifecycle } from "./layout.js";
import type { LifecycleDiagram } from "./model.js";
import { renderLifecycle } from "./render.js";
import { lifecycleRuleProblems } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";
import { tracePath } from "./trace.js";

/** Lifecycle (state machine) diagrams: states, composite states, transitions, laid out by elk. */
export const type: DiagramType<LifecycleDiagram, LifecycleLayout> = {
  name: "lifecycle",
  schema,
  rules: lifecycleRuleProblems,
  layout: layoutLifecycle,
  render: renderLifecycle,
  trace: tracePath,
  starter,
};
