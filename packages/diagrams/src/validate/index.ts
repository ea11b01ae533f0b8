import type { WorkflowDiagram } from "../schema/types.js";
import { locate, parseWithLocations } from "./parse.js";
import type { Problem } from "./problem.js";
import { ruleProblems } from "./rules.js";
import { schemaProblems } from "./schema-problems.js";

export type { Problem } from "./problem.js";

export type ValidationResult =
  | { ok: true; diagram: WorkflowDiagram; problems: [] }
  | { ok: false; problems: Problem[] };

export interface ValidateOptions {
  /** Named in every problem, as given (e.g. the path on the command line). */
  file?: string;
}

function byPosition(a: Problem, b: Problem): number {
  return a.line - b.line || a.column - b.column || a.path.localeCompare(b.path);
}

/**
 * Validates a workflow description given as JSON text: syntax, the JSON Schema and every rule
 * beyond it. Reports all problems at once, each with line, column and JSON path, sorted by
 * position. Never throws on bad input.
 */
export function validateSource(source: string, options: ValidateOptions = {}): ValidationResult {
  const { file } = options;
  const parsed = parseWithLocations(source, file);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const problems: Problem[] = [...parsed.problems];
  for (const problem of [...schemaProblems(parsed.value), ...ruleProblems(parsed.value)]) {
    const { at, ...rest } = problem;
    const position = locate(parsed, problem.path, at ?? "value");
    problems.push({ ...(file === undefined ? {} : { file }), ...position, ...rest });
  }
  if (problems.length > 0) return { ok: false, problems: problems.sort(byPosition) };
  return { ok: true, diagram: parsed.value as WorkflowDiagram, problems: [] };
}

function textLine(problem: Problem): string {
  const where = `${problem.file ?? "<input>"}:${problem.line}:${problem.column}`;
  const suggestion = problem.suggestion ? ` (${problem.suggestion})` : "";
  return `${where}  ${problem.path || "/"}  ${problem.message}${suggestion}  [${problem.rule}]`;
}

/**
 * Problems for people (one line each: `file:line:col  path  message (suggestion)  [rule]`,
 * a form editors and terminals turn into links) or for machines (a JSON array of Problem).
 */
export function formatProblems(problems: Problem[], format: "text" | "json"): string {
  if (format === "json") return `${JSON.stringify(problems, null, 2)}\n`;
  return problems.map((p) => `${textLine(p)}\n`).join("");
}
