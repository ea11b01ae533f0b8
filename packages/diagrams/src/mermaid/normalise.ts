/**
 * The description export → import gives back, when it is not the very same one: the few
 * orders Mermaid fixes (docs/diagrams/mermaid.md, "Round trip"). Everything else comes back
 * as it was. The round-trip tests compare against this.
 */
import type { Description } from "../core/diagram-type.js";
import type { DataFlowDiagram, TrustBoundary } from "../types/data-flow/model.js";
import type { LifecycleDiagram, State } from "../types/lifecycle/model.js";
import type { SequenceDiagram, Step } from "../types/sequence/model.js";
import { isBranched, isFragment } from "../types/sequence/model.js";
import { starRegions } from "./state/export.js";

export function normalise<D extends Description>(d: D): D {
  const copy = structuredClone(d) as Description;
  if (copy.diagram_type === "lifecycle") return lifecycle(copy as LifecycleDiagram) as unknown as D;
  if (copy.diagram_type === "sequence") return sequence(copy as SequenceDiagram) as unknown as D;
  if (copy.diagram_type === "data-flow") return dataFlow(copy as DataFlowDiagram) as unknown as D;
  return copy as D;
}

/**
 * Each region lists its initial state first and its final states last; transitions come in the
 * order of the blocks holding them: each composite's (innermost first), then the top level's.
 */
function lifecycle(d: LifecycleDiagram): LifecycleDiagram {
  const { home } = starRegions(d);
  const order: string[] = [];
  const visit = (states: State[]) => {
    for (const s of states) {
      if (!s.states) continue;
      visit(s.states);
      order.push(s.id);
    }
  };
  visit(d.states);
  order.push("");
  const rank = (s: State) => (s.kind === "initial" ? 0 : s.kind === "final" ? 2 : 1);
  const sortRegion = (states: State[]): State[] =>
    states
      .map((s) => (s.states ? { ...s, states: sortRegion(s.states) } : s))
      .map((s, i) => [s, i] as const)
      .sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
      .map(([s]) => s);
  d.transitions = d.transitions
    .map((t, i) => [t, i] as const)
    .sort((a, b) => order.indexOf(home(a[0])) - order.indexOf(home(b[0])) || a[1] - b[1])
    .map(([t]) => t);
  d.states = sortRegion(d.states);
  return d;
}

/** Participants a `create` message makes are declared there, so they come after the others. */
function sequence(d: SequenceDiagram): SequenceDiagram {
  const created: string[] = [];
  const walk = (steps: Step[]) => {
    for (const s of steps) {
      if (s.kind === "create" && !created.includes(s.to)) created.push(s.to);
      if (isFragment(s)) walk(s.steps);
      if (isBranched(s)) for (const b of s.branches) walk(b.steps);
      if (isFragment(s)) for (const o of s.options ?? []) walk(o.steps);
    }
  };
  walk(d.steps);
  const later = created
    .map((id) => d.participants.find((p) => p.id === id))
    .filter((p) => p !== undefined);
  d.participants = [...d.participants.filter((p) => !created.includes(p.id)), ...later];
  return d;
}

/** Trust boundaries nest as subgraphs: each listed after its parent, depth first. */
function dataFlow(d: DataFlowDiagram): DataFlowDiagram {
  if (!d.boundaries) return d;
  const all = d.boundaries;
  const known = new Set(all.map((b) => b.id));
  const out: TrustBoundary[] = [];
  const visit = (b: TrustBoundary) => {
    out.push(b);
    for (const inner of all) if (inner.boundary === b.id) visit(inner);
  };
  for (const b of all) if (b.boundary === undefined || !known.has(b.boundary)) visit(b);
  d.boundaries = out;
  return d;
}
