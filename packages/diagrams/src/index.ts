export {
  type ExportOptions,
  exportDiagram,
  OUTPUT_FORMATS,
  type OutputFormat,
} from "./export/index.js";
export { layoutDiagram, METRICS, type Words, wordsFor } from "./layout/index.js";
export type * from "./layout/types.js";
export { type PreviewOptions, type PreviewServer, startPreview } from "./preview/server.js";
export { type RenderOptions, renderLayoutSvg, renderSvg } from "./render/svg.js";
export { THEMES, type Theme } from "./render/theme.js";
export type * from "./schema/types.js";
export { RULES, type RuleId } from "./validate/catalog.js";
export {
  formatProblems,
  type ValidateOptions,
  type ValidationResult,
  validateSource,
} from "./validate/index.js";
export type { Problem } from "./validate/problem.js";
