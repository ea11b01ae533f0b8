/**
 * The vocabulary every diagram type shares: ids, locales, points, component types, the legend,
 * brand marks, guided views, edge variants and roles, presets, quality profiles, animation and
 * `meta`. A type's own model (e.g. types/workflow/model.ts) builds on these; nothing here knows
 * any type. docs/diagrams/format.md describes them for people.
 */

/** Letters, digits, `_` and `-`, starting with a letter; 1 to 64 characters. */
export type Id = string;

/** A BCP 47 tag of the form language[-Script][-REGION], e.g. "en", "pt-BR", "zh-Hant-TW". */
type Locale = string;

/** A position in diagram units (the viewBox coordinate system, origin top-left). */
export interface Point {
  x: number;
  y: number;
}

/**
 * The legend's categories; every component type belongs to one, or to none (flow markers).
 * Each is a component type of its own name as well.
 */
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

/** What a box can stand for: the legend's categories, then the types listed under one of them. */
export const COMPONENT_TYPES = [
  ...LEGEND_KEYS,
  "user",
  "service",
  "queue",
  "storage",
  "decision",
  "start",
  "end",
] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

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
type LegendMode = (typeof LEGEND_MODES)[number];

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
interface GuidedView {
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

export const BAND_VARIANTS = ["default", "emphasis", "security", "dashed"] as const;
export type BandVariant = (typeof BAND_VARIANTS)[number];

export const VISUAL_PRESETS = ["classic", "signal-flow", "blueprint", "editorial"] as const;
export type VisualPreset = (typeof VISUAL_PRESETS)[number];

export const QUALITY_PROFILES = ["standard", "showcase"] as const;
export type QualityProfile = (typeof QUALITY_PROFILES)[number];

export const ANIMATIONS = ["trace", "none"] as const;
type Animation = (typeof ANIMATIONS)[number];

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
