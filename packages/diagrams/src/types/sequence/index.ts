import type { DiagramType } from "../../core/diagram-type.js";
import { layoutSequence } from "./layout.js";
import type { SequenceLayout } from "./layout-types.js";
import type { SequenceDiagram } from "./model.js";
import { renderSequenceSvg, sequenceInteraction } from "./render.js";
import { sequenceRuleProblems, viewTargets } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";

/** Sequence diagrams: participants' lifelines and the messages between them, in order. */
export const type: DiagramType<SequenceDiagram, SequenceLayout> = {
  name: "sequence",
  schema,
  rules: sequenceRuleProblems,
  viewTargets,
  layout: layoutSequence,
  render: renderSequenceSvg,
  interaction: sequenceInteraction,
  starter,
};
