// Types of describe-diagram.mjs: what the Integration page reads from src/generated/diagrams.json.

/** A state as the text names it: its label, or (initial, final, choice) its kind. */
export type StateName = { label: string } | { kind: string };

export type SequenceItem =
  | { kind: "message"; number: number; from: string; to: string; label: string; guards: string[] }
  | { kind: "divider"; label: string };

/** An architecture's element: `kind` is the format's keyword (person, database, …). */
export interface ArchitectureElement {
  label: string;
  kind: string;
  technology: string;
  description: string;
}

/** A boundary and what it holds; `kind` is the format's keyword (system, cluster, …). */
export interface ArchitectureBoundary {
  label: string;
  kind: string;
  technology: string;
  elements: ArchitectureElement[];
  boundaries: ArchitectureBoundary[];
}

export interface ArchitectureText {
  /** Outside every boundary. */
  elements: ArchitectureElement[];
  boundaries: ArchitectureBoundary[];
  /** `kind`: sync, async or data. */
  relationships: { from: string; to: string; label: string; technology: string; kind: string }[];
}

/** A data flow; `classification` is the format's keyword (public, internal, …). */
export interface DataFlowItem {
  from: string;
  to: string;
  label: string;
  protocol: string;
  classification: string;
  /** The trust boundaries it leaves (innermost first) and enters; null: it crosses none. */
  crosses: { outOf: string[]; into: string[] } | null;
}

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
  /** Architecture only: the parts by boundary and the relationships. */
  architecture?: ArchitectureText;
  /** Data-flow only: the flows in document order. */
  flows?: DataFlowItem[];
}

/** `reports`: the rows of the type's named reports by name (a data-flow needs `boundaries`). */
export function describeDiagram(
  diagram: unknown,
  reports?: Record<string, Record<string, unknown>[]>,
): DiagramText;
