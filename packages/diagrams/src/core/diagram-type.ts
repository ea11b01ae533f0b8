import type { Card, Meta, QualityProfile } from "./model.js";
import type { DiagramReport } from "./report.js";
import type { Theme } from "./theme.js";
import type { ViewTargets } from "./validate/meta-rules.js";
import type { TypeSchema } from "./validate/schema.js";
import type { SchemaHints, UnlocatedProblem } from "./validate/schema-problems.js";

/** What every description has, whatever its type. */
export interface Description {
  schema_version: number;
  diagram_type: string;
  meta: Meta;
}

/** What every layout has: the drawing's size, which PDF pages and PNG canvases take. */
export interface LaidOut {
  width: number;
  height: number;
  /** What the drawing could not honour (rule ids under "render/"), located by JSON Pointer. */
  warnings?: UnlocatedProblem[];
}

/** One step of the HTML trace: a node (g.node) or an edge (g.edge), by its `data-id`. */
export interface TraceStep {
  kind: "node" | "edge";
  id: string;
}

/** What the HTML page of a type plays and shows (export/html.ts). */
export interface Interaction {
  /**
   * The steps in play order. A node step lights the node; an edge step lights the edge and its
   * ends (`data-from`, `data-to`) and moves a dot along its `.edge-line`. Empty: no trace.
   */
  trace: TraceStep[];
  /** The trace button's words, e.g. "Trace main path", "Play messages". */
  traceLabel: string;
  /** Detail cards by node id (`data-id` of a g.node), opened on click or Enter. */
  cards?: Record<string, Card>;
}

/** One of a type's views: a different drawing of the same description (a zoom level). */
export interface ViewInfo {
  id: string;
  title: string;
  caption?: string;
}

/** Options every renderer takes. */
export interface RenderOptions {
  /** Overrides meta.visual_preset. */
  preset?: Theme["name"];
  /** Overrides meta.quality_profile. */
  quality?: QualityProfile;
}

/**
 * The contract each diagram type fulfils (src/types/<name>/index.ts exports one as `type`).
 * Each stage is a pure function: the description in, numbers out, SVG text out. The core runs
 * them: it parses with positions, applies the schema, locates the problems, picks the theme and
 * hands the SVG to the exporters.
 */
export interface DiagramType<D extends Description = Description, L extends LaidOut = LaidOut> {
  /** The diagram_type value. */
  name: string;
  /** The type's JSON Schema (2020-12): the authority for what a description may contain. */
  schema: TypeSchema;
  /** Type-specific help turning schema errors into plain words. */
  hints?: SchemaHints;
  /**
   * The rules beyond the schema. They read the raw parsed value, not a schema-valid
   * description, so that a description with a schema problem still gets every other problem
   * in the same run; anything of the wrong shape is skipped (the schema reports it). Problems
   * carry a JSON Pointer; the core turns it into file:line:column.
   */
  rules(value: unknown): UnlocatedProblem[];
  /**
   * What meta.views may highlight in this type (the core checks the references); without it
   * view references are not checked.
   */
  viewTargets?(value: unknown): ViewTargets;
  /**
   * Pure: the same description gives the same numbers on every machine. `view` picks one of
   * `views(d)` (default: the first); a type without views ignores it.
   */
  layout(d: D, view?: string): L | Promise<L>;
  /**
   * The drawings one description makes, in order (e.g. context, then containers); none: one.
   * SVG and PNG draw one view, PDF one page per view, HTML a step per view.
   */
  views?(d: D): ViewInfo[];
  /**
   * What the drawing cannot honour, the same list as `layout(d).warnings`, made without the
   * parts of the layout that warn about nothing (what `validate` asks for); without it the
   * core lays the description out.
   */
  warnings?(d: D): UnlocatedProblem[];
  /** The SVG; the preset comes from `options.preset`, else meta.visual_preset. */
  render(d: D, l: L, options?: RenderOptions): string;
  /** What the HTML page plays (`animation: trace`) and opens on click; none: views only. */
  interaction?(d: D, l: L): Interaction;
  /** What `init --type` writes: a valid description that shows the type's main features. */
  starter: D;
  /** Named reports on a valid description (`validate --report <name>`), e.g. "boundaries". */
  reports?: Record<string, DiagramReport<D>>;
}
