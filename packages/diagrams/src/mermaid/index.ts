/**
 * Mermaid in and out. `importMermaid` picks the reader from the header line (each Mermaid kind
 * in its own folder, loaded only when used); `exportMermaid` writes the closest Mermaid for a
 * description of any type. docs/diagrams/mermaid.md has the mapping, construct by construct.
 */
import type { Description } from "../core/diagram-type.js";
import type { TypeName } from "../types/index.js";
import { type ImportIssue, scan } from "./source.js";

export type { ImportIssue };

/** What a flowchart may become; sequence and state diagrams have one type each. */
const FLOWCHART_TYPES = ["architecture", "workflow", "data-flow"] as const;

export type MermaidKind = "sequence" | "state" | "flowchart";

export type ImportResult =
  | { ok: true; kind: MermaidKind; diagram: Description; issues: ImportIssue[] }
  | { ok: false; issues: ImportIssue[] };

/** The Mermaid kind a header line names, and the description type it becomes by default. */
export function detectKind(header: string): MermaidKind | undefined {
  const word = /^\S+/.exec(header)?.[0] ?? "";
  if (word === "sequenceDiagram") return "sequence";
  if (word === "stateDiagram" || word === "stateDiagram-v2") return "state";
  if (word === "flowchart" || word === "graph" || word === "flowchart-elk") return "flowchart";
  return undefined;
}

/** The description type a Mermaid kind becomes, `type` (from --type) choosing for flowcharts. */
export function targetType(
  kind: MermaidKind,
  type: TypeName | undefined,
): TypeName | { error: string } {
  const fixed = kind === "sequence" ? "sequence" : kind === "state" ? "lifecycle" : undefined;
  if (fixed) {
    if (type !== undefined && type !== fixed) {
      return { error: `a ${kind} diagram becomes a ${fixed} description, not ${type}` };
    }
    return fixed;
  }
  const chosen = type ?? "architecture";
  if (!(FLOWCHART_TYPES as readonly string[]).includes(chosen)) {
    return { error: `a flowchart becomes ${FLOWCHART_TYPES.join(", ")}, not ${chosen}` };
  }
  return chosen;
}

/**
 * Reads Mermaid text into a description. Everything that does not carry over whole is in
 * `issues` with Mermaid's line and column; `ok: false` when there is no diagram to make.
 */
export async function importMermaid(
  source: string,
  options: { type?: TypeName; fallbackTitle?: string } = {},
): Promise<ImportResult> {
  const scanned = scan(source);
  const header = scanned.header;
  const title = options.fallbackTitle ?? "Imported diagram";
  if (!header) {
    return {
      ok: false,
      issues: [...scanned.issues, { line: 1, col: 1, message: "no diagram: the file is empty" }],
    };
  }
  const kind = detectKind(header.text);
  if (!kind) {
    const word = /^\S+/.exec(header.text)?.[0];
    return {
      ok: false,
      issues: [
        ...scanned.issues,
        {
          line: header.line,
          col: header.col,
          message: `"${word}" diagrams are not read; sequenceDiagram, stateDiagram(-v2), flowchart and graph are`,
        },
      ],
    };
  }
  const target = targetType(kind, options.type);
  if (typeof target !== "string") {
    return { ok: false, issues: [{ line: header.line, col: header.col, message: target.error }] };
  }
  if (kind === "sequence") {
    const { importSequence } = await import("./sequence/import.js");
    const r = importSequence(scanned, title);
    return { ok: true, kind, diagram: r.diagram, issues: sorted(r.issues) };
  }
  if (kind === "state") {
    const { importState } = await import("./state/import.js");
    const r = importState(scanned, title);
    return { ok: true, kind, diagram: r.diagram, issues: sorted(r.issues) };
  }
  const { parseFlowchart } = await import("./flowchart/parse.js");
  const chart = parseFlowchart(scanned);
  // A flowchart that decides (a {…} diamond) is a process: a workflow keeps its decisions,
  // which an architecture has no element for.
  const decides = options.type === undefined && chart.nodes.some((n) => n.shape === "rhombus");
  const mapped = decides ? "workflow" : target;
  const mapper =
    mapped === "workflow"
      ? await import("./flowchart/to-workflow.js")
      : mapped === "data-flow"
        ? await import("./flowchart/to-data-flow.js")
        : await import("./flowchart/to-architecture.js");
  const r = mapper.fromFlowchart(chart, scanned, title) as {
    diagram: Description;
    issues: ImportIssue[];
  };
  return { ok: true, kind, diagram: r.diagram, issues: sorted(r.issues) };
}

const sorted = (issues: ImportIssue[]) =>
  [...issues].sort((a, b) => a.line - b.line || a.col - b.col);

/** The closest Mermaid for a valid description, with what Mermaid cannot say kept in `%%` annotations. */
export async function exportMermaid(diagram: Description): Promise<string> {
  switch (diagram.diagram_type) {
    case "sequence":
      return (await import("./sequence/export.js")).exportSequence(diagram as never);
    case "lifecycle":
      return (await import("./state/export.js")).exportState(diagram as never);
    case "architecture":
      return (await import("./flowchart/from-architecture.js")).exportArchitecture(
        diagram as never,
      );
    case "workflow":
      return (await import("./flowchart/from-workflow.js")).exportWorkflow(diagram as never);
    case "data-flow":
      return (await import("./flowchart/from-data-flow.js")).exportDataFlow(diagram as never);
    default:
      throw new Error(`no Mermaid export for diagram_type "${diagram.diagram_type}"`);
  }
}

/** Problems as `FILE:LINE:COL: message` lines, the way the CLI prints them. */
export const formatIssues = (file: string, issues: ImportIssue[]): string =>
  issues.map((i) => `${file}:${i.line}:${i.col}: ${i.message}\n`).join("");

/**
 * Mermaid text → description JSON text, checked by the description's own validation; what the
 * CLI `import` command and the preview share. `issues` are the import's (not carried over);
 * `problems` what the validation found in the result, formatted.
 */
export async function importToJson(
  source: string,
  options: { file: string; type?: TypeName; fallbackTitle?: string },
): Promise<
  | { ok: true; json: string; diagram: Description; issues: ImportIssue[] }
  | { ok: false; issues: ImportIssue[]; problems: string }
> {
  const imported = await importMermaid(source, options);
  if (!imported.ok) return { ok: false, issues: imported.issues, problems: "" };
  const json = `${JSON.stringify(imported.diagram, null, 2)}\n`;
  // Checked as a value first; only a description with problems is parsed again with
  // positions, to say where they are.
  const value = JSON.parse(json) as Description;
  const { problemsOf } = await import("../validate/as-type.js");
  const { loadType } = await import("../types/index.js");
  if (problemsOf(await loadType(imported.diagram.diagram_type as TypeName), value).length === 0) {
    return { ok: true, json, diagram: value, issues: imported.issues };
  }
  const { validateSource, formatProblems } = await import("../validate/index.js");
  const checked = await validateSource(json, { file: `${options.file} (imported)` });
  return { ok: false, issues: imported.issues, problems: formatProblems(checked.problems, "text") };
}
