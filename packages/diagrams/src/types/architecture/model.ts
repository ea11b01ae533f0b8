/**
 * The architecture description format (diagram_type "architecture"), as TypeScript types.
 * `schema/architecture.schema.json` is the authority for what a file may contain; these types
 * describe the same shapes. Reference: docs/diagrams/architecture.md.
 */
import type { BrandMark, ComponentType, Id, Meta } from "../../core/model.js";

/** The C4 model's building blocks, plus the two stores and external systems drawn apart. */
export const ELEMENT_KINDS = [
  "person",
  "software_system",
  "container",
  "component",
  "database",
  "queue",
  "external_system",
] as const;
export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** The icon and legend category each kind takes unless `component_type` says otherwise. */
export const KIND_COMPONENT: Record<ElementKind, ComponentType> = {
  person: "user",
  software_system: "service",
  container: "backend",
  component: "service",
  database: "database",
  queue: "queue",
  external_system: "external",
};

/** What a boundary stands for: drawn alike, named in the header (as Structurizr and D2 do). */
export const BOUNDARY_KINDS = [
  "enterprise",
  "system",
  "container",
  "cloud",
  "cluster",
  "network",
  "group",
] as const;
export type BoundaryKind = (typeof BOUNDARY_KINDS)[number];

/** sync: a call waited on; async: a message sent and not waited on; data: data read or copied. */
export const RELATIONSHIP_KINDS = ["sync", "async", "data"] as const;
export type RelationshipKind = (typeof RELATIONSHIP_KINDS)[number];

/** Which way relationships run: right (default), down, left or up. */
export type Direction = "right" | "down" | "left" | "up";

/** The shared meta, plus the layout's direction. */
interface ArchitectureMeta extends Meta {
  direction?: Direction;
}

/** Nudges for the automatic layout, never coordinates. */
interface Hints {
  /** first: in the first layer of its region; last: in the last. */
  rank?: "first" | "last";
  /** Within its layer, lower numbers come first (before, or above). */
  order?: number;
  /** An element or boundary of the same region to keep this one beside. */
  near?: Id;
}

export interface Element {
  id: Id;
  kind: ElementKind;
  label: string;
  /** One or two lines on what it does. */
  description?: string;
  /** Technology, written in the tag: e.g. "Fastify", "PostgreSQL 16". */
  technology?: string;
  /** Overrides the kind's icon and legend category. */
  component_type?: ComponentType;
  brand?: BrandMark;
  hints?: Hints;
}

export interface Boundary {
  id: Id;
  kind?: BoundaryKind;
  label: string;
  technology?: string;
  elements?: Element[];
  boundaries?: Boundary[];
  hints?: Hints;
}

export interface Relationship {
  id?: Id;
  /** An element or a boundary. */
  from: Id;
  to: Id;
  label?: string;
  /** Technology or protocol, e.g. "HTTPS/JSON", "SQL/TLS". */
  technology?: string;
  kind?: RelationshipKind;
}

/** A zoom level: the boundaries named in `expand` open (with those around them); the rest close. */
export interface View {
  id: Id;
  title: string;
  caption?: string;
  /**
   * "all": every boundary open; a list: those boundaries open (with the ones around them), the
   * rest closed to one box; empty or absent: every boundary closed (a context view).
   */
  expand?: Id[] | "all";
}

export interface ArchitectureDiagram {
  schema_version: 2;
  diagram_type: "architecture";
  meta: ArchitectureMeta;
  /** Elements outside every boundary. */
  elements?: Element[];
  boundaries?: Boundary[];
  relationships?: Relationship[];
  /** Zoom levels; absent: one view with every boundary open. */
  views?: View[];
}

interface ElementEntry {
  element: Element;
  pointer: string;
  /** The boundaries around it, outermost first. */
  path: string[];
}

interface BoundaryEntry {
  boundary: Boundary;
  pointer: string;
  path: string[];
}

/** Every element and boundary, depth-first in document order, with pointer and ancestors. */
export function walkDiagram(d: Pick<ArchitectureDiagram, "elements" | "boundaries">): {
  elements: ElementEntry[];
  boundaries: BoundaryEntry[];
} {
  const elements: ElementEntry[] = [];
  const boundaries: BoundaryEntry[] = [];
  (d.elements ?? []).forEach((element, i) => {
    elements.push({ element, pointer: `/elements/${i}`, path: [] });
  });
  const walk = (list: Boundary[], pointer: string, path: string[]) => {
    list.forEach((boundary, i) => {
      const at = `${pointer}/${i}`;
      boundaries.push({ boundary, pointer: at, path });
      const inner = [...path, boundary.id];
      (boundary.elements ?? []).forEach((element, k) => {
        elements.push({ element, pointer: `${at}/elements/${k}`, path: inner });
      });
      walk(boundary.boundaries ?? [], `${at}/boundaries`, inner);
    });
  };
  walk(d.boundaries ?? [], "/boundaries", []);
  return { elements, boundaries };
}

/** The views a description offers: its own, or one with every boundary open. */
export function viewsOf(d: ArchitectureDiagram): View[] {
  if (d.views && d.views.length > 0) return d.views;
  return [{ id: "all", title: d.meta.title, expand: "all" }];
}
