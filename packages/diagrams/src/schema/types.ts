/**
 * The workflow description format (diagram_type "workflow"), as TypeScript types.
 *
 * This is the contract between the stages: validate produces a `WorkflowDiagram`,
 * layout consumes one. The JSON Schema in `schema/workflow.schema.json` is the
 * authority for what a file may contain; these types must describe exactly the same
 * shapes. Shapes that the format document leaves "defined elsewhere" are designed
 * here and explained in docs/diagrams/format.md.
 */

/** Letters, digits, `_` and `-`, starting with a letter; 1 to 64 characters. */
export type Id = string;

/** A BCP 47 tag of the form language[-Script][-REGION], e.g. "en", "pt-BR", "zh-Hant-TW". */
export type Locale = string;

/** A position in diagram units (the viewBox coordinate system, origin top-left). */
export interface Point {
  x: number;
  y: number;
}

export const COMPONENT_TYPES = [
  "frontend",
  "backend",
  "database",
  "cloud",
  "security",
  "messagebus",
  "external",
  "user",
  "service",
  "queue",
  "storage",
  "decision",
  "start",
  "end",
] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** The legend's categories; every component type belongs to one, or to none (flow markers). */
export const LEGEND_KEYS = [
  "frontend",
  "backend",
  "database",
  "cloud",
  "security",
  "messagebus",
  "external",
] as const;
export type LegendKey = (typeof LEGEND_KEYS)[number];

/** Which legend category a component type is drawn and listed under; null: not in the legend. */
export const LEGEND_CATEGORY: Record<ComponentType, LegendKey | null> = {
  frontend: "frontend",
  backend: "backend",
  database: "database",
  cloud: "cloud",
  security: "security",
  messagebus: "messagebus",
  external: "external",
  user: "external",
  service: "backend",
  queue: "messagebus",
  storage: "database",
  decision: null,
  start: null,
  end: null,
};

/** auto: one entry per category used by the nodes; manual: exactly `entries`; hidden: no legend. */
export const LEGEND_MODES = ["auto", "manual", "hidden"] as const;
export type LegendMode = (typeof LEGEND_MODES)[number];

export interface LegendEntry {
  /** Text shown in the legend in place of the category's default name. */
  label: string;
  /** A short explanation shown after the label. */
  description?: string;
}

export interface Legend {
  mode?: LegendMode;
  entries?: Partial<Record<LegendKey, LegendEntry>>;
}

/**
 * A product or vendor mark drawn as a small badge on a node. Drawn from text only (no
 * image files, no network), so a render never depends on anything outside the description.
 */
export interface BrandMark {
  /** The product name, e.g. "PostgreSQL"; used for the accessible description. */
  name: string;
  /** One to three characters shown in the badge; defaults to the name's first letters. */
  monogram?: string;
  /** Badge colour as #rrggbb; defaults to the preset's accent. */
  color?: string;
}

/** A guided view: a named step that highlights some nodes and edges (HTML output steps through them). */
export interface GuidedView {
  id: Id;
  title: string;
  caption?: string;
  /** Node ids to highlight; at least one. */
  nodes: Id[];
  /** Edge ids to highlight. */
  edges?: Id[];
}

/** A detail card for one node, shown in the HTML output when the node is selected. */
export interface Card {
  title?: string;
  /** Paragraphs of plain text; at least one. */
  body: string[];
  links?: { label: string; href: string }[];
}

export const EDGE_VARIANTS = [
  "default",
  "emphasis",
  "muted",
  "dashed",
  "dotted",
  "security",
] as const;
export type EdgeVariant = (typeof EDGE_VARIANTS)[number];

export const EDGE_ROLES = ["main", "branch", "async", "return", "error"] as const;
export type EdgeRole = (typeof EDGE_ROLES)[number];

export const SIDES = ["left", "right", "top", "bottom"] as const;
export type Side = (typeof SIDES)[number];

export const ROUTES = [
  "auto",
  "straight",
  "drop",
  "outside-right",
  "return-left",
  "bottom-channel",
  "up-channel",
] as const;
export type Route = (typeof ROUTES)[number];

export const BAND_VARIANTS = ["default", "emphasis", "security", "dashed"] as const;
export type BandVariant = (typeof BAND_VARIANTS)[number];

export const VISUAL_PRESETS = ["classic", "signal-flow", "blueprint", "editorial"] as const;
export type VisualPreset = (typeof VISUAL_PRESETS)[number];

export const QUALITY_PROFILES = ["standard", "showcase"] as const;
export type QualityProfile = (typeof QUALITY_PROFILES)[number];

export const ANIMATIONS = ["trace", "none"] as const;
export type Animation = (typeof ANIMATIONS)[number];

export interface Meta {
  title: string;
  locale?: Locale;
  subtitle?: string;
  /** Default output file for `render` when no -o is given, relative to the description. */
  output?: string;
  animation?: Animation;
  visual_preset?: VisualPreset;
  quality_profile?: QualityProfile;
  /** schema_version 2 only. */
  views?: GuidedView[];
  legend?: Legend;
  /** [width, height]; width at least 700, height at least 240. */
  viewBox?: [number, number];
}

export interface Lane {
  id: Id;
  label: string;
  variant?: "normal" | "exception";
}

export interface Phase {
  id: Id;
  label: string;
  fromCol: number;
  toCol: number;
  variant?: BandVariant;
}

export interface Group {
  id: Id;
  label: string;
  lane: Id;
  fromCol: number;
  toCol: number;
  variant?: BandVariant;
}

export interface DiagramNode {
  id: Id;
  lane: Id;
  /** 0 to 5. */
  col: number;
  type: ComponentType;
  label: string;
  sublabel?: string;
  tag?: string;
  brand?: BrandMark;
  width?: number;
  height?: number;
  yOffset?: number;
}

export interface Edge {
  id?: Id;
  from: Id;
  to: Id;
  label?: string;
  variant?: EdgeVariant;
  role?: EdgeRole;
  fromSide?: Side;
  toSide?: Side;
  route?: Route;
  via?: Point[];
  labelAt?: Point;
  labelDx?: number;
  labelDy?: number;
  labelSegment?: number;
  channelX?: number;
  channelY?: number;
  bias?: number;
  width?: number;
}

export interface FromTo {
  from: Id;
  to: Id;
}

export interface SemanticChecks {
  allowedRoots?: Id[];
  allowedTerminals?: Id[];
  requiredEdges?: FromTo[];
  requiredPaths?: FromTo[];
}

export interface WorkflowDiagram {
  schema_version: 1 | 2;
  diagram_type: "workflow";
  meta: Meta;
  lanes: Lane[];
  nodes: DiagramNode[];
  edges: Edge[];
  phases?: Phase[];
  groups?: Group[];
  mainPath?: Id[];
  semanticChecks?: SemanticChecks;
  /** schema_version 2 only. Keys are node ids. */
  cards?: Record<Id, Card>;
}
