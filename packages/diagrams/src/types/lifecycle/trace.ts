import type { LifecycleDiagram } from "./model.js";

/**
 * The path the HTML trace plays: from the top-level initial state, each state's first
 * transition in document order (a `main` one first), until the path would repeat a state.
 */
export function tracePath(diagram: LifecycleDiagram): string[] {
  const start = diagram.states.find((s) => s.kind === "initial");
  if (!start) return [];
  const path = [start.id];
  const seen = new Set(path);
  for (let at = start.id; ; ) {
    const out = diagram.transitions.filter((t) => t.from === at && !seen.has(t.to));
    const next = out.find((t) => (t.role ?? "main") === "main") ?? out[0];
    if (!next) return path;
    path.push(next.to);
    seen.add(next.to);
    at = next.to;
  }
}
