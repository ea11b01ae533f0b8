import type { Interaction, TraceStep } from "../../core/diagram-type.js";
import type { LifecycleLayout } from "./layout.js";
import type { LifecycleDiagram } from "./model.js";

/**
 * The HTML trace plays the machine's main run: from the top-level initial state, each state's
 * first transition in document order (a `main` one first), state by state, until the run would
 * come back to a state it has passed.
 */
export function interaction(diagram: LifecycleDiagram, layout: LifecycleLayout): Interaction {
  const trace: TraceStep[] = [];
  const start = diagram.states.find((s) => s.kind === "initial");
  if (start) {
    const seen = new Set([start.id]);
    trace.push({ kind: "node", id: start.id });
    for (let at = start.id; ; ) {
      const out = layout.transitions.filter((t) => t.from === at && !seen.has(t.to));
      const next = out.find((t) => t.role === "main") ?? out[0];
      if (!next) break;
      trace.push({ kind: "edge", id: next.id }, { kind: "node", id: next.to });
      seen.add(next.to);
      at = next.to;
    }
  }
  return { trace: trace.length > 1 ? trace : [], traceLabel: "Play the main run" };
}
