import type { Problem } from "../src/core/validate/problem.js";
import type { JsonSchema } from "../src/core/validate/schema.js";
import type { WorkflowDiagram } from "../src/types/workflow/model.js";
import { derefWorkflow as resolveRef, validateWorkflow } from "./support/workflow.js";

/**
 * A small description that is valid and uses every field, so that each conformance case can
 * break exactly one rule by one mutation of a fresh copy.
 */
export function baseDiagram(): WorkflowDiagram {
  return {
    schema_version: 2,
    diagram_type: "workflow",
    meta: {
      title: "Base",
      locale: "en",
      subtitle: "Every field once",
      output: "base.svg",
      animation: "trace",
      visual_preset: "classic",
      quality_profile: "standard",
      views: [{ id: "v1", title: "View", caption: "Caption", nodes: ["a"], edges: ["e1"] }],
      legend: { mode: "auto", entries: { backend: { label: "Backend", description: "APIs" } } },
      viewBox: [800, 300],
    },
    lanes: [
      { id: "l1", label: "Lane 1", variant: "normal" },
      { id: "l2", label: "Lane 2", variant: "exception" },
    ],
    phases: [{ id: "p1", label: "Phase", fromCol: 0, toCol: 2, variant: "default" }],
    groups: [{ id: "g1", label: "Group", lane: "l1", fromCol: 0, toCol: 1, variant: "emphasis" }],
    nodes: [
      { id: "a", lane: "l1", col: 0, type: "start", label: "A" },
      {
        id: "b",
        lane: "l1",
        col: 1,
        type: "backend",
        label: "B",
        sublabel: "Sub",
        tag: "Tag",
        brand: { name: "Brand", monogram: "Br", color: "#112233" },
        width: 120,
        height: 60,
        yOffset: 4,
      },
      { id: "c", lane: "l2", col: 2, type: "end", label: "C" },
    ],
    edges: [
      {
        id: "e1",
        from: "a",
        to: "b",
        label: "go",
        variant: "default",
        role: "main",
        fromSide: "right",
        toSide: "left",
        route: "auto",
        via: [{ x: 10, y: 20 }],
        labelAt: { x: 5, y: 5 },
        labelDx: 1,
        labelDy: 2,
        labelSegment: 0,
        channelX: 3,
        channelY: 4,
        bias: 0.5,
        width: 2,
      },
      { id: "e2", from: "b", to: "c", role: "main" },
      { id: "e3", from: "a", to: "c", role: "branch" },
    ],
    mainPath: ["a", "b", "c"],
    semanticChecks: {
      allowedRoots: ["a"],
      allowedTerminals: ["c"],
      requiredEdges: [{ from: "a", to: "b" }],
      requiredPaths: [{ from: "a", to: "c" }],
    },
    cards: {
      b: { title: "B", body: ["Text"], links: [{ label: "Docs", href: "https://example.com/b" }] },
    },
  };
}

/** Validates a value as pretty-printed JSON text, the way a file on disk would look. */
export function check(value: unknown): Problem[] {
  return validateWorkflow(JSON.stringify(value, null, 2)).problems;
}

/** Problems reduced to what the conformance suite asserts: rule and JSON path. */
export function rulesAndPaths(problems: Problem[]): { rule: string; path: string }[] {
  return problems.map(({ rule, path }) => ({ rule, path }));
}

/** A schema with its $ref followed; throws on a dangling reference, which is a schema bug. */
export function deref(s: unknown): JsonSchema {
  const resolved = resolveRef(s);
  if (!resolved) throw new Error(`no schema at ${JSON.stringify(s)}`);
  return resolved;
}
