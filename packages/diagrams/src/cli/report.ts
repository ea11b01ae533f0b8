import type { Description } from "../core/diagram-type.js";
import { didYouMean } from "../core/validate/suggest.js";
import { isTypeName, loadType } from "../types/index.js";

/** A named report on a valid description, as `validate --report NAME` prints it. */
type ReportResult =
  | { ok: true; rows: Record<string, unknown>[]; text: string[] }
  | { ok: false; error: string };

/**
 * Runs the report `name` that the description's type offers; an error naming the reports the
 * type does offer (with did-you-mean) when it offers none by that name.
 */
export async function runReport(diagram: Description, name: string): Promise<ReportResult> {
  const typeName = diagram.diagram_type;
  const type = isTypeName(typeName) ? await loadType(typeName) : undefined;
  const reports = type?.reports ?? {};
  const report = Object.hasOwn(reports, name) ? reports[name] : undefined;
  if (!report) {
    const offered = Object.keys(reports);
    const mean = didYouMean(name, offered);
    const list =
      offered.length === 0
        ? `${typeName} diagrams offer no reports`
        : `${typeName} diagrams offer: ${offered.map((r) => `${r} (${reports[r]?.summary})`).join("; ")}`;
    return { ok: false, error: `no report "${name}"${mean ? ` (${mean})` : ""}; ${list}` };
  }
  const rows = report.rows(diagram);
  return { ok: true, rows, text: report.text(rows) };
}
