import {
  formatProblems,
  type ValidateOptions,
  type ValidationResult,
  validateParsed,
} from "../core/validate/index.js";
import { parseWithLocations } from "../core/validate/parse.js";
import { isTypeName, loadType } from "../types/index.js";

export type { Problem } from "../core/validate/problem.js";
export { formatProblems, type ValidateOptions, type ValidationResult };

/**
 * Validates a description given as JSON text, as the type its `diagram_type` names: syntax,
 * that type's JSON Schema and every rule beyond it. Reports all problems at once, each with
 * line, column and JSON path, sorted by position. Never throws on bad input.
 */
export async function validateSource(
  source: string,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  const parsed = parseWithLocations(source, options.file);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const name = (parsed.value as { diagram_type?: unknown } | null)?.diagram_type;
  // Until more types are registered, anything else is checked as a workflow, whose schema
  // names the one allowed value.
  const type = await loadType(isTypeName(name) ? name : "workflow");
  return validateParsed(type, parsed, options);
}
