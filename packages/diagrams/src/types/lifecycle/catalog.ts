/**
 * The rule ids the lifecycle type adds to the core's (validate/catalog.ts), with what each
 * means; docs/diagrams/lifecycle.md lists the same ids and the conformance suite proves each.
 */
export const LIFECYCLE_RULES = {
  "ref/state": "a transition end, note or view node naming no state",
  "ref/transition": "a view edge naming no transition id",
  "state/pseudo-composite":
    "an initial, final, choice, fork or join state holding states of its own",
  "region/initial": "a region without its initial state, or with more than one",
  "state/unreachable": "a state no path of transitions reaches from the initial state",
  "final/outgoing": "a transition leaving a final state",
  "initial/incoming": "a transition entering an initial state",
} as const;
