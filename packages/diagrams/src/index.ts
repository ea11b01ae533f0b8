export type { Description, DiagramType, LaidOut, RenderOptions } from "./core/diagram-type.js";
export { THEMES, type Theme } from "./core/theme.js";
export type { Problem } from "./core/validate/problem.js";
export {
  type ExportOptions,
  exportDiagram,
  OUTPUT_FORMATS,
  type OutputFormat,
} from "./export/index.js";
export {
  exportMermaid,
  type ImportIssue,
  type ImportResult,
  importMermaid,
  importToJson,
} from "./mermaid/index.js";
export { type PreviewOptions, type PreviewServer, startPreview } from "./preview/server.js";
export { isTypeName, loadType, TYPE_NAMES, type TypeName } from "./types/index.js";
// Workflow-only parts, named for their type: the other types are reached through loadType.
export {
  RULES as WORKFLOW_RULES,
  type RuleId as WorkflowRuleId,
} from "./types/workflow/catalog.js";
export {
  layoutDiagram as layoutWorkflow,
  METRICS as WORKFLOW_METRICS,
  type Words,
  wordsFor,
} from "./types/workflow/layout/index.js";
export type * from "./types/workflow/layout/types.js";
export type * from "./types/workflow/model.js";
export {
  renderLayoutSvg as renderWorkflowLayoutSvg,
  renderSvg as renderWorkflowSvg,
} from "./types/workflow/render.js";
export {
  formatProblems,
  type ValidateOptions,
  type ValidationResult,
  validateSource,
} from "./validate/index.js";
