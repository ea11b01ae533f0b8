/**
 * Every rule a problem can name, with what it means. docs/diagrams/format.md lists the same ids,
 * and the conformance suite proves each one both passes and fails.
 */
export const RULES = {
  "json/syntax": "the file is not valid JSON",
  "json/duplicate-key": "a property appears twice in one object",
  "schema/required": "a required property is missing",
  "schema/additionalProperties": "a property the format does not know (unknown at this level)",
  "schema/type": "a value of the wrong JSON type",
  "schema/enum": "a value outside its set of allowed values",
  "schema/const": "a value other than the one allowed (diagram_type must be workflow)",
  "schema/minimum": "a number below its lower bound",
  "schema/maximum": "a number above its upper bound",
  "schema/minItems": "an array with too few items",
  "schema/maxItems": "an array with too many items (viewBox has two)",
  "schema/minLength": "a string that must not be empty, or is too short",
  "schema/maxLength": "a string that is too long (brand monogram: at most 3 characters)",
  "schema/pattern": "a string of the wrong form (id, locale, colour, link)",
  "schema/propertyNames": "a cards key that is not a valid id",
  "schema/minProperties": "semanticChecks without any check",
  "version/v2-only": "meta.views or cards in a schema_version 1 description",
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
