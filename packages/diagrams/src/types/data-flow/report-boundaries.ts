import type { DiagramReport } from "../../core/report.js";
import { boundaryCrossings } from "./crossings.js";
import { type DataFlowDiagram, flowId, parents } from "./model.js";

/** One flow crossing at least one trust boundary: where a threat review starts. */
interface BoundaryCrossingRow {
  [key: string]: unknown;
  flow: string;
  from: string;
  to: string;
  label: string;
  protocol: string | null;
  classification: string;
  /** Boundaries the data leaves, innermost first. */
  out_of: string[];
  /** Boundaries the data enters, outermost first. */
  into: string[];
}

/**
 * `validate --report boundaries`: every flow that crosses a trust boundary, in document order,
 * with the boundaries it leaves and enters, its protocol and classification.
 */
export const boundariesReport: DiagramReport<DataFlowDiagram> = {
  summary:
    "every data flow that crosses a trust boundary, with the boundaries, protocol and classification",
  rows(d) {
    const parentOf = parents(d);
    return d.flows.flatMap((f, index): BoundaryCrossingRow[] => {
      const crossed = boundaryCrossings(f.from, f.to, parentOf);
      if (crossed.out.length === 0 && crossed.into.length === 0) return [];
      return [
        {
          flow: flowId(f, index),
          from: f.from,
          to: f.to,
          label: f.label,
          protocol: f.protocol ?? null,
          classification: f.classification ?? "unclassified",
          out_of: crossed.out,
          into: crossed.into,
        },
      ];
    });
  },
  text(rows) {
    const list = rows as BoundaryCrossingRow[];
    const n = list.length;
    const head = `${n} flow${n === 1 ? "" : "s"} cross${n === 1 ? "es" : ""} a trust boundary`;
    return [
      n === 0 ? "no flow crosses a trust boundary" : `${head}:`,
      ...list.map((r) => {
        const crossing = [
          r.out_of.length > 0 ? `out of ${r.out_of.join(", ")}` : "",
          r.into.length > 0 ? `into ${r.into.join(", ")}` : "",
        ]
          .filter(Boolean)
          .join("; ");
        const how = [r.protocol, r.classification].filter(Boolean).join(", ");
        return `  ${r.flow}  ${r.from} → ${r.to}  "${r.label}" (${how})  ${crossing}`;
      }),
    ];
  },
};
