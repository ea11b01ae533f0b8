import type { Meta, QualityProfile } from "./model.js";
import type { Theme } from "./theme.js";
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
  /** Pure: the same description gives the same numbers on every machine. */
  layout(d: D): L | Promise<L>;
  /** The SVG; the preset comes from `options.preset`, else meta.visual_preset. */
  render(d: D, l: L, options?: RenderOptions): string;
  /** Element ids (`data-id`) in play order for HTML `animation: trace`; none: no trace button. */
  trace?(d: D, l: L): string[];
  /** What `init --type` writes: a valid description that shows the type's main features. */
  starter: D;
}
