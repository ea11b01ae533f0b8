import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { exportDiagram } from "../export/index.js";
import { formatProblems, validateSource } from "../validate/index.js";
import type { PreviewOptions, PreviewState } from "./state.js";

type Failure = Extract<PreviewState, { ok: false }>;
/** A step's outcome: what it hands to the next step, or the problems the page shows instead. */
type Step<T> = { ok: true; value: T } | Failure;

function failure(version: number, problems: string, count: number): Failure {
  return { version, ok: false, problems, count };
}

function readSource(file: string, options: PreviewOptions, version: number): Step<string> {
  try {
    return { ok: true, value: readFileSync(file, "utf8") };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return failure(version, `${options.file}: cannot read the file (${code ?? String(error)})`, 1);
  }
}

/**
 * A Mermaid file is imported on each save; what it does not carry over is shown beside the
 * picture (the warnings).
 */
async function importMermaid(
  source: string,
  file: string,
  options: PreviewOptions,
  version: number,
): Promise<Step<{ json: string; warnings?: string }>> {
  const { formatIssues, importToJson } = await import("../mermaid/index.js");
  const imported = await importToJson(source, {
    file: options.file,
    fallbackTitle: basename(file).replace(/\.[^.]+$/, ""),
    ...(options.type ? { type: options.type } : {}),
  });
  const listed = formatIssues(options.file, imported.issues);
  if (!imported.ok) {
    const count = imported.issues.length + (imported.problems ? 1 : 0);
    return failure(version, `${listed}${imported.problems}`, count);
  }
  return { ok: true, value: { json: imported.json, ...(listed ? { warnings: listed } : {}) } };
}

/** The description at `file` as the page shows it, numbered `version`. */
export async function buildPreviewState(
  file: string,
  options: PreviewOptions,
  version: number,
): Promise<PreviewState> {
  const read = readSource(file, options, version);
  if (!read.ok) return read;
  let source = read.value;
  let warnings: string | undefined;
  if (/\.(mmd|mermaid)$/i.test(file)) {
    const imported = await importMermaid(source, file, options, version);
    if (!imported.ok) return imported;
    source = imported.value.json;
    warnings = imported.value.warnings;
  }
  const result = await validateSource(source, { file: options.file });
  if (!result.ok) {
    return failure(version, formatProblems(result.problems, "text"), result.problems.length);
  }
  let svg: string;
  try {
    svg = (await exportDiagram(result.diagram, "svg", {
      ...(options.preset ? { preset: options.preset } : {}),
      ...(options.view === undefined ? {} : { view: options.view }),
    })) as string;
  } catch (error) {
    // A view the description does not have (any longer): said on the page, like a problem.
    return failure(version, `${options.file}: ${(error as Error).message}`, 1);
  }
  return {
    version,
    ok: true,
    svg,
    title: result.diagram.meta.title,
    ...(warnings ? { warnings } : {}),
  };
}
