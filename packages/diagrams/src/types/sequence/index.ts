import type { DiagramType } from "../../core/diagram-type.js";
import { layoutSequence, type SequenceLayout } from "./layout.js";
import type { SequenceDiagram } from "./model.js";
import { renderSequenceSvg, sequenceTrace } from "./render.js";
import { sequenceRuleProblems } from "./rules.js";
import { schema } from "./schema.js";
import { starter } from "./starter.js";

/** Sequence diagrams: participants' lifelines and the messages between them, in order. */
export const type: DiagramType<SequenceDiagram, SequenceLayout> = {
  name: "sequence",
  schema,
  rules: sequenceRuleProblems,
  layout: layoutSequence,
  render: renderSequenceSvg,
  trace: sequenceTrace,
  starter,
};
