import type { WorkflowDiagram } from "../../src/types/workflow/model.js";

/** A small seeded generator (mulberry32): the same seed always gives the same workflow. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "validate",
  "order",
  "payload",
  "retry",
  "after",
  "timeout",
  "enqueue",
  "signed",
  "webhook",
  "refund",
  "request",
  "approved",
  "reserve",
  "stock",
  "notify",
  "partner",
];

/**
 * A dense workflow as the issue describes: 6 lanes × 6 columns, 30 nodes, 45 edges with long
 * labels, two phases and a group, laid out from `seed`.
 */
export function denseWorkflow(seed: number): WorkflowDiagram {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const cells = Array.from({ length: 36 }, (_, i) => i);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [cells[i], cells[j]] = [cells[j] as number, cells[i] as number];
  }
  const used = cells.slice(0, 30).sort((a, b) => (a % 6) - (b % 6) || a - b);
  const nodes = used.map((cell, i) => ({
    id: `n${i}`,
    lane: `l${Math.floor(cell / 6)}`,
    col: cell % 6,
    type: pick(["service", "backend", "database", "queue", "external", "frontend"] as const),
    label: `Step ${i + 1}`,
  }));
  const label = () =>
    Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => pick(WORDS)).join(" ");
  const edges: WorkflowDiagram["edges"] = [];
  const seen = new Set<string>();
  const add = (from: number, to: number) => {
    const key = `${from}-${to}`;
    if (from === to || seen.has(key)) return;
    seen.add(key);
    edges.push({
      id: `e${edges.length}`,
      from: `n${from}`,
      to: `n${to}`,
      label: label(),
      ...(rnd() < 0.2 ? { role: pick(["async", "return", "error"] as const) } : {}),
    });
  };
  for (let i = 1; i < nodes.length; i++) add(i - 1, i);
  while (edges.length < 45) add(Math.floor(rnd() * 30), Math.floor(rnd() * 30));
  return {
    schema_version: 1,
    diagram_type: "workflow",
    meta: { title: `Dense workflow ${seed}` },
    lanes: Array.from({ length: 6 }, (_, i) => ({ id: `l${i}`, label: `Lane ${i + 1}` })),
    phases: [
      { id: "p0", label: "Intake", fromCol: 0, toCol: 2 },
      { id: "p1", label: "Fulfilment", fromCol: 3, toCol: 5 },
    ],
    groups: [{ id: "g0", label: "Core services", lane: "l2", fromCol: 1, toCol: 3 }],
    nodes,
    edges,
    mainPath: ["n0", "n1", "n2"],
  };
}
