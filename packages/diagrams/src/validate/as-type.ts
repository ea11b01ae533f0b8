import type { Description, DiagramType } from "../core/diagram-type.js";
import { metaProblems } from "../core/validate/meta-rules.js";
import { locate, type ParsedSource, parseWithLocations } from "../core/validate/parse.js";
import type { Problem } from "../core/validate/problem.js";
import type { TypeSchema } from "../core/validate/schema.js";
import { schemaProblems, type UnlocatedProblem } from "../core/validate/schema-problems.js";

export type { Problem } from "../core/validate/problem.js";

export type ValidationResult<D = Description> =
  | { ok: true; diagram: D; problems: [] }
  | { ok: false; problems: Problem[] };

export interface ValidateOptions {
  /** Named in every problem, as given (e.g. the path on the command line). */
  file?: string;
}

/** The parts of a type validation needs. */
export interface Validated<D extends Description> {
  schema: Pick<TypeSchema, "json" | "validator">;
  hints?: DiagramType<D, never>["hints"];
  rules: DiagramType<D, never>["rules"];
  viewTargets?: DiagramType<D, never>["viewTargets"];
}

function byPosition(a: Problem, b: Problem): number {
  return a.line - b.line || a.column - b.column || a.path.localeCompare(b.path);
}

/**
 * Validates a description of one type given as JSON text: syntax, the type's JSON Schema and
 * every rule beyond it. Reports all problems at once, each with line, column and JSON path,
 * sorted by position. Never throws on bad input.
 */
export function validateAs<D extends Description>(
  type: Validated<D>,
  source: string,
  options: ValidateOptions = {},
): ValidationResult<D> {
  const parsed = parseWithLocations(source, options.file);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  return validateParsed(type, parsed, options);
}

/** `validateAs` for a source already parsed (whose own problems, e.g. duplicate keys, count). */
export function validateParsed<D extends Description>(
  type: Validated<D>,
  parsed: ParsedSource & { problems: Problem[] },
  options: ValidateOptions = {},
): ValidationResult<D> {
  return result<D>(parsed, problemsOf(type, parsed.value), options);
}

/** The schema, shared meta and type rule problems of a parsed value, not yet located. */
export function problemsOf<D extends Description>(
  type: Validated<D>,
  value: unknown,
): UnlocatedProblem[] {
  return [
    ...schemaProblems(value, type.schema, type.hints),
    ...metaProblems(value, type.viewTargets?.(value)),
    ...type.rules(value),
  ];
}

/** Gives each problem its line and column in the parsed source, in position order. */
export function locateAll(
  parsed: ParsedSource,
  found: UnlocatedProblem[],
  options: ValidateOptions = {},
): Problem[] {
  const { file } = options;
  return found
    .map((problem) => {
      const { at, ...rest } = problem;
      const position = locate(parsed, problem.path, at ?? "value");
      return { ...(file === undefined ? {} : { file }), ...position, ...rest };
    })
    .sort(byPosition);
}

/** Locates `found` in the parsed source and gives the verdict. */
export function result<D>(
  parsed: ParsedSource & { problems: Problem[] },
  found: UnlocatedProblem[],
  options: ValidateOptions = {},
): ValidationResult<D> {
  const problems: Problem[] = [...parsed.problems, ...locateAll(parsed, found, options)];
  if (problems.length > 0) return { ok: false, problems: problems.sort(byPosition) };
  return { ok: true, diagram: parsed.value as D, problems: [] };
}

function textLine(problem: Problem): string {
  const where = `${problem.file ?? "<input>"}:${problem.line}:${problem.column}`;
  const suggestion = problem.suggestion ? ` (${problem.suggestion})` : "";
  const warning = problem.severity === "warning" ? "warning: " : "";
  return `${where}  ${problem.path || "/"}  ${warning}${problem.message}${suggestion}  [${problem.rule}]`;
}

/**
 * Problems for people (one line each: `file:line:col  path  message (suggestion)  [rule]`,
 * a form editors and terminals turn into links) or for machines (a JSON array of Problem).
 */
export function formatProblems(problems: Problem[], format: "text" | "json"): string {
  if (format === "json") return `${JSON.stringify(problems, null, 2)}\n`;
  return problems.map((p) => `${textLine(p)}\n`).join("");
}
