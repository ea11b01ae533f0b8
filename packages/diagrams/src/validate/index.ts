import type { LaidOut } from "../core/diagram-type.js";
import { parseWithLocations } from "../core/validate/parse.js";
import type { Problem } from "../core/validate/problem.js";
import type { UnlocatedProblem } from "../core/validate/schema-problems.js";
import { isTypeName, loadType } from "../types/index.js";
import {
  formatProblems,
  locateAll,
  type ValidateOptions,
  type ValidationResult,
  validateParsed,
} from "./as-type.js";
import { envelope } from "./envelope.js";

export type { Problem };
export { formatProblems, type ValidateOptions, type ValidationResult };

/**
 * Validates a description given as JSON text, as the type its `diagram_type` names: syntax,
 * that type's JSON Schema, the shared meta rules and the type's rules. Reports all problems at
 * once, each with line, column and JSON path, sorted by position. A diagram_type that names no
 * registered type is a problem listing the registered ones, reported with any problem in the
 * shared parts. Never throws on bad input.
 */
export async function validateSource(
  source: string,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  const parsed = parseWithLocations(source, options.file);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const name = (parsed.value as { diagram_type?: unknown } | null)?.diagram_type;
  const type = isTypeName(name) ? await loadType(name) : envelope;
  return validateParsed(type, parsed, options);
}

/**
 * What the drawing of a valid description cannot honour (a route, a side, a channel, text cut
 * short), as warnings located like problems. Lays the description out to find them.
 */
export async function renderWarnings(
  source: string,
  options: ValidateOptions = {},
  /** The description's layout when the caller has made it (it is not made twice). */
  layout?: LaidOut,
): Promise<Problem[]> {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return [];
  }
  const name = (value as { diagram_type?: unknown } | null)?.diagram_type;
  if (!isTypeName(name)) return [];
  const type = layout ? undefined : await loadType(name);
  const found = (layout?.warnings ??
    type?.warnings?.(value) ??
    (await type?.layout(value))?.warnings ??
    []) as UnlocatedProblem[];
  // Reading positions costs more than the parse: only when there is something to locate.
  if (found.length === 0) return [];
  const parsed = parseWithLocations(source, options.file);
  if (!parsed.ok) return [];
  return locateAll(parsed, found, options).map((p) => ({ ...p, severity: "warning" as const }));
}
