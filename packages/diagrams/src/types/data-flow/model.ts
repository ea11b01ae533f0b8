/**
 * The data-flow diagram format (diagram_type "data-flow"), as TypeScript types: external
 * entities, processes and data stores joined by data flows, inside trust boundaries, ready for
 * a threat review. `schema/data-flow.schema.json` is the authority for what a file may contain;
 * these types describe the same shapes. Reference: docs/diagrams/data-flow.md.
 */
import type { ComponentType, Id, Meta } from "../../core/model.js";

export const DIRECTIONS = ["right", "down", "left", "up"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * entity: outside the system's control, a source or sink of data (a partner, a user);
 * process: something that transforms or moves data; store: where data rests.
 */
export const ELEMENT_KINDS = ["entity", "process", "store"] as const;
export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** How sensitive the data on a flow is, least to most. */
const CLASSIFICATIONS = ["public", "internal", "confidential", "personal"] as const;
type Classification = (typeof CLASSIFICATIONS)[number];
/** A flow's drawn classification: the one written, or "unclassified" when none is. */
export type DrawnClassification = Classification | "unclassified";

export interface DataFlowMeta extends Meta {
  /** Which way flows read; right when absent. */
  direction?: Direction;
}

export interface TrustBoundary {
  id: Id;
  label: string;
  /** What the boundary stands for, drawn under its label (e.g. "TLS terminates here"). */
  sublabel?: string;
  /** The boundary enclosing this one; absent: the top level. */
  boundary?: Id;
}

export interface Element {
  id: Id;
  kind: ElementKind;
  label: string;
  /** A smaller second line: the technology, the owner. */
  sublabel?: string;
  /** The innermost trust boundary enclosing the element; absent: none. */
  boundary?: Id;
  /** The family's component type, for its icon (e.g. database, cache, queue, user). */
  component_type?: ComponentType;
}

export interface Flow {
  /** Unique among flows; `f<index>` when absent (0-based, in document order). */
  id?: Id;
  from: Id;
  to: Id;
  /** The data that moves, e.g. "Signed order". */
  label: string;
  /** How it moves, e.g. "HTTPS", "TLS 1.3", "SQL over TLS". */
  protocol?: string;
  /** How sensitive the data is; a flow without one is drawn as unclassified. */
  classification?: Classification;
}

export interface DataFlowDiagram {
  schema_version: 2;
  diagram_type: "data-flow";
  meta: DataFlowMeta;
  boundaries?: TrustBoundary[];
  elements: Element[];
  flows: Flow[];
}

/** A flow's id as drawn and reported. */
export const flowId = (f: Flow, index: number): string => f.id ?? `f${index}`;

/** The boundaries enclosing `id` (an element or a boundary), innermost first. */
export function enclosing(id: string, parentOf: ReadonlyMap<string, string | undefined>): string[] {
  const out: string[] = [];
  for (let at = parentOf.get(id); at !== undefined && !out.includes(at); at = parentOf.get(at)) {
    out.push(at);
  }
  return out;
}

/** Element and boundary id → the boundary directly enclosing it. */
export function parents(d: DataFlowDiagram): Map<string, string | undefined> {
  const map = new Map<string, string | undefined>();
  for (const b of d.boundaries ?? []) map.set(b.id, b.boundary);
  for (const e of d.elements) map.set(e.id, e.boundary);
  return map;
}
