import type { VisualPreset } from "../core/model.js";
import type { TypeName } from "../types/index.js";

/** What the page shows: the drawing, or the problems that stop it being drawn. */
export type PreviewState =
  | { version: number; ok: true; svg: string; title: string; warnings?: string }
  | { version: number; ok: false; problems: string; count: number };

export interface PreviewOptions {
  file: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  preset?: VisualPreset;
  /** Of a type with views: the one shown (default the first). */
  view?: string;
  /** Of a Mermaid flowchart (.mmd): the type it is imported as (default architecture). */
  type?: TypeName;
}
