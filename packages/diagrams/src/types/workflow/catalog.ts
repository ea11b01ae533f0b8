import { CORE_RULES } from "../../core/validate/catalog.js";

/**
 * Every rule a workflow problem can name, with what it means: the core's and workflow's own.
 * docs/diagrams/workflow.md lists the same ids, and the conformance suite proves each one both
 * passes and fails.
 */
export const RULES = {
  ...CORE_RULES,
  "id/duplicate": "two lanes, nodes, phases, groups, edges or views with the same id",
  "ref/lane": "a node or group lane that names no lane",
  "ref/node":
    "an edge end, mainPath entry, semanticChecks entry, view node or cards key naming no node",
  "ref/edge": "a view edge that names no edge id",
  "cols/order": "a phase or group whose fromCol is after its toCol",
  "layout/shared-cell": "two nodes in the same lane and column",
  "mainPath/edge": "two consecutive mainPath ids with no edge from the first to the second",
  "checks/allowed-roots": "a node without incoming edges that allowedRoots does not list",
  "checks/allowed-terminals": "a node without outgoing edges that allowedTerminals does not list",
  "checks/required-edge": "an edge listed in requiredEdges that does not exist",
  "checks/required-path": "a path listed in requiredPaths that the edges do not provide",
} as const;

export type RuleId = keyof typeof RULES;
