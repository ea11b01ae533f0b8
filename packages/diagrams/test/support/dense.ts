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

type Edge = WorkflowDiagram["edges"][number];
type Route = NonNullable<Edge["route"]>;

/** Route hints as a user picks them: by where the other end lies. */
function routeHint(
  from: { lane: number; col: number },
  to: { lane: number; col: number },
  rnd: () => number,
): Pick<Edge, "route" | "labelSegment" | "role"> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  if (from.col === 5 && to.col === 5) return { route: "outside-right" };
  if (from.col === to.col) return { route: "drop" };
  if (from.lane === to.lane) {
    const route: Route = pick(["bottom-channel", "up-channel"]);
    return { route, ...(rnd() < 0.5 ? { labelSegment: 1 } : {}) };
  }
  if (to.col < from.col) return { route: "return-left", role: "return" };
  return { route: pick(["straight", "auto"] as const) };
}

/**
 * Dense workflows as users vary them, beside `denseWorkflow`: 7 lanes × 6 columns (columns stop
 * at 5), 40 nodes, 60 edges with labels of 1 to 6 words, groups in two lanes, an exception
 * lane, edges within one column and within one lane, and `route` hints on about a quarter of
 * the edges. The same seed always gives the same, valid workflow.
 */
export function variedWorkflow(seed: number): WorkflowDiagram {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const LANES = 7;
  const COLS = 6;
  const cells = Array.from({ length: LANES * COLS }, (_, i) => i);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [cells[i], cells[j]] = [cells[j] as number, cells[i] as number];
  }
  const used = cells
    .slice(0, 40)
    .map((cell) => ({ lane: Math.floor(cell / COLS), col: cell % COLS }))
    .sort((a, b) => a.col - b.col || a.lane - b.lane);
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, () => pick(WORDS)).join(" ");
  const nodes = used.map(({ lane, col }, i) => ({
    id: `n${i}`,
    lane: `l${lane}`,
    col,
    type: pick([
      "service",
      "backend",
      "database",
      "queue",
      "external",
      "frontend",
      "decision",
      "user",
      "storage",
    ] as const),
    label: i === 0 ? "Start" : words(1, 3),
    ...(rnd() < 0.25 ? { sublabel: words(2, 4) } : {}),
    ...(rnd() < 0.1 ? { tag: pick(["v2", "SLA 1 h", "3 retries"]) } : {}),
  }));
  const edges: Edge[] = [];
  const seen = new Set<string>();
  const add = (from: number, to: number) => {
    const key = `${from}-${to}`;
    if (from === to || seen.has(key)) return;
    seen.add(key);
    const a = used[from] as { lane: number; col: number };
    const b = used[to] as { lane: number; col: number };
    edges.push({
      id: `e${edges.length}`,
      from: `n${from}`,
      to: `n${to}`,
      ...(rnd() < 0.9 ? { label: words(1, 6) } : {}),
      ...(rnd() < 0.25 ? { role: pick(["async", "return", "error", "branch"] as const) } : {}),
      ...(rnd() < 0.25 ? routeHint(a, b, rnd) : {}),
    });
  };
  /** Another node sharing this node's column, or its lane. */
  const neighbour = (i: number, same: "col" | "lane") => {
    const mates = used.flatMap((c, j) => (j !== i && c[same] === used[i]?.[same] ? [j] : []));
    return mates.length > 0 ? pick(mates) : i;
  };
  for (let i = 1; i < nodes.length; i++) add(i - 1, i);
  while (edges.length < 48) {
    const i = Math.floor(rnd() * 40);
    add(i, neighbour(i, rnd() < 0.5 ? "col" : "lane"));
  }
  while (edges.length < 60) add(Math.floor(rnd() * 40), Math.floor(rnd() * 40));
  const [g0, g1] = [Math.floor(rnd() * LANES), Math.floor(rnd() * LANES)];
  return {
    schema_version: 2,
    diagram_type: "workflow",
    meta: { title: `Varied dense workflow ${seed}` },
    lanes: Array.from({ length: LANES }, (_, i) => ({
      id: `l${i}`,
      label: i === LANES - 1 ? "Failures" : `Lane ${i + 1}`,
      ...(i === LANES - 1 ? { variant: "exception" as const } : {}),
    })),
    phases: [
      { id: "p0", label: "Receive", fromCol: 0, toCol: 1 },
      { id: "p1", label: "Decide", fromCol: 2, toCol: 3, variant: "dashed" },
      { id: "p2", label: "Deliver", fromCol: 4, toCol: 5, variant: "emphasis" },
    ],
    groups: [
      { id: "g0", label: "Core services", lane: `l${g0}`, fromCol: 1, toCol: 3 },
      {
        id: "g1",
        label: "Partner boundary",
        lane: `l${g1 === g0 ? (g0 + 1) % LANES : g1}`,
        fromCol: 3,
        toCol: 5,
        variant: "security",
      },
    ],
    nodes,
    edges,
    mainPath: ["n0", "n1", "n2", "n3"],
  };
}
