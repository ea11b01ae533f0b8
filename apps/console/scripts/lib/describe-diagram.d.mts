// Types of describe-diagram.mjs: what the Integration page reads from src/generated/diagrams.json.

/** A state as the text names it: its label, or (initial, final, choice) its kind. */
export type StateName = { label: string } | { kind: string };

export type SequenceItem =
  | { kind: "message"; number: number; from: string; to: string; label: string; guards: string[] }
  | { kind: "divider"; label: string };

export interface DiagramText {
  type: string;
  language: string;
  title: string;
  subtitle: string;
  views: { title: string; caption: string }[];
  /** Sequence only: messages in drawing order, dividers between them. */
  sequence?: SequenceItem[];
  /** Lifecycle only: transitions in document order. */
  transitions?: { from: StateName; to: StateName; text: string }[];
}

export function describeDiagram(diagram: unknown): DiagramText;
