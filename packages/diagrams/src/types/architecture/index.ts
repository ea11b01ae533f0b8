import type { DiagramType } from "../../core/diagram-type.js";
import { interaction } from "./interaction.js";
import { type ArchitectureLayout, layoutArchitecture } from "./layout.js";
import { type ArchitectureDiagram, viewsOf } from "./model.js";
import { renderArchitecture } from "./render.js";
import { architectureRuleProblems, viewTargets } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";

/** Architecture diagrams: people, systems, containers and stores in nested boundaries, with zoom views. */
export const type: DiagramType<ArchitectureDiagram, ArchitectureLayout> = {
  name: "architecture",
  schema,
  rules: architectureRuleProblems,
  viewTargets,
  layout: layoutArchitecture,
  views: (d) =>
    viewsOf(d).map((v) =>
      v.caption ? { id: v.id, title: v.title, caption: v.caption } : { id: v.id, title: v.title },
    ),
  render: renderArchitecture,
  interaction,
  starter,
};
