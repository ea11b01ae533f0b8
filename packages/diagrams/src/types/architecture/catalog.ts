/**
 * The rule ids the architecture type adds to the core's (validate/catalog.ts), with what
 * each means; docs/diagrams/architecture.md lists the same ids and the conformance suite proves
 * each.
 */
export const ARCHITECTURE_RULES = {
  "ref/element": "a relationship end or a near hint naming no element or boundary",
  "ref/boundary": "a view opening something that is not a boundary",
  "ref/relationship": "a guided view edge naming no relationship id",
  "relationship/self": "a relationship from an element or boundary to itself",
  "relationship/nested": "a relationship between a boundary and something inside it",
  "hint/near": "a near hint naming the element itself or one in another region",
} as const;
