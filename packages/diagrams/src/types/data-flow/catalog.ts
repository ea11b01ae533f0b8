/**
 * The rule ids the data-flow type adds to the core's (validate/catalog.ts), with what each
 * means; docs/diagrams/data-flow.md lists the same ids and the conformance suite proves each.
 */
export const DATA_FLOW_RULES = {
  "ref/element": "a flow end or view node naming no element or boundary",
  "ref/boundary": "an element or boundary placed in a boundary that is not declared",
  "ref/flow": "a view edge naming no flow id",
  "boundary/cycle": "a boundary that encloses itself through the boundaries around it",
  "boundary/empty": "a boundary that encloses no element and no boundary",
  "flow/self": "a flow from an element to itself",
  "flow/no-process":
    "a flow with no process at either end (entity to entity, entity to store, store to store, store to entity)",
  "process/input": "a process that no flow enters",
  "process/output": "a process that no flow leaves",
  "element/unconnected": "an external entity or data store that no flow touches",
} as const;
