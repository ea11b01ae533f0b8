// Counts the graph layouts' reading defects over the examples and the seeded corpus (200 drawings
// per graph type), with the layout time per drawing: the figures docs/benchmarks.md records.
// The tests assert the same promises (test/graph-backward.test.ts, test/graph-arrowheads.test.ts);
// this only counts them, so a before/after comparison reads one table.
//
//   node bench/graph-defects.mjs [seeds] [--detail]   (after npm run build; seeds: 200)
//
// Rows: the examples, the hand-made cases in bench/graph-defects/ (a hub nine boxes write to,
// three transitions into a final state, self-loops beside notes), then the seeded corpus.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARROWHEAD_SPAN } from "../dist/core/arrowhead.js";
import { oneTrunk } from "../dist/core/graph-check.js";
import { edgesOnCycles } from "../dist/core/graph-layout/cycles.js";
import { loadType } from "../dist/types/index.js";
import { validateSource } from "../dist/validate/index.js";
import { CORPUS } from "./graph-corpus.mjs";

const EXAMPLES = fileURLToPath(new URL("../../../examples/diagrams/", import.meta.url));
const TYPES = ["lifecycle", "architecture", "data-flow"];

/** The drawn nodes (with their compound parent) and edges of a layout. */
function drawn(type, l) {
  if (type === "lifecycle") return { nodes: l.states, edges: l.transitions };
  const edges = type === "architecture" ? l.relationships : l.flows;
  return { nodes: [...l.elements, ...(l.boundaries ?? [])], edges };
}

function nested(nodes) {
  const made = new Map(nodes.map((n) => [n.id, { id: n.id, children: [] }]));
  const roots = [];
  for (const n of nodes) {
    const node = made.get(n.id);
    if (n.parent === undefined) roots.push(node);
    else made.get(n.parent)?.children.push(node);
  }
  return roots;
}

/** The least number of arcs whose removal leaves no cycle: exact (subset DP) up to 16 ends. */
export function minimumFeedbackArcs(arcs) {
  const live = arcs.filter((a) => a.from !== a.to);
  const ids = [...new Set(live.flatMap((a) => [a.from, a.to]))];
  if (ids.length > 16) return undefined;
  const at = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  // into[v]: bitmask weight of arcs v → u, as counts per u.
  const out = Array.from({ length: n }, () => new Array(n).fill(0));
  for (const a of live) out[at.get(a.from)][at.get(a.to)]++;
  const best = new Array(1 << n).fill(Number.POSITIVE_INFINITY);
  best[0] = 0;
  for (let set = 0; set < 1 << n; set++) {
    if (best[set] === Number.POSITIVE_INFINITY) continue;
    for (let v = 0; v < n; v++) {
      if (set & (1 << v)) continue;
      // v placed after everything in `set`: its arcs into `set` run backwards.
      let cost = 0;
      for (let u = 0; u < n; u++) if (set & (1 << u)) cost += out[v][u];
      const next = set | (1 << v);
      if (best[set] + cost < best[next]) best[next] = best[set] + cost;
    }
  }
  return best[(1 << n) - 1];
}

/** Arcs grouped by the connected pieces their ends form. */
function arcGroups(arcs) {
  const parent = new Map();
  const find = (n) => {
    const p = parent.get(n) ?? n;
    if (p === n) return n;
    const root = find(p);
    parent.set(n, root);
    return root;
  };
  for (const a of arcs) parent.set(find(a.from), find(a.to));
  const groups = new Map();
  for (const a of arcs) groups.set(find(a.from), [...(groups.get(find(a.from)) ?? []), a]);
  return [...groups.values()];
}

/** Backward lines on no cycle, and backward lines beyond what each group of cycles forces. */
function backward(type, l) {
  const g = drawn(type, l);
  const onCycles = edgesOnCycles(nested(g.nodes), g.edges);
  const needless = g.edges.filter((e) => e.against && !onCycles.has(e.id)).length;
  let excess = 0;
  for (const group of arcGroups(g.edges.filter((e) => onCycles.has(e.id) && e.from !== e.to))) {
    const ends = new Set(group.flatMap((e) => [e.from, e.to])).size;
    const least = minimumFeedbackArcs(group) ?? group.length - ends + 1;
    const forced = Math.max(1, Math.min(least, group.length - ends + 1));
    const back = group.filter((e) => e.against).length;
    excess += Math.max(0, back - forced);
  }
  return { needless, excess };
}

/** Pairs of arrowheads closer than one arrowhead (lines joined into one trunk draw one). */
function sharedHeads(type, l) {
  const edges = drawn(type, l).edges;
  let count = 0;
  for (let i = 0; i < edges.length; i++) {
    for (let j = i + 1; j < edges.length; j++) {
      const [a, b] = [edges[i].points.at(-1), edges[j].points.at(-1)];
      if (Math.hypot(a.x - b.x, a.y - b.y) < ARROWHEAD_SPAN && !oneTrunk(edges[i], edges[j]))
        count++;
    }
  }
  return count;
}

function segmentsCross(p, q, r, s) {
  const d = (a, b, c) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  const [d1, d2, d3, d4] = [d(r, s, p), d(r, s, q), d(p, q, r), d(p, q, s)];
  return d1 * d2 < 0 && d3 * d4 < 0;
}
const pathsCross = (a, b) =>
  a.some((p, i) => i > 0 && b.some((r, j) => j > 0 && segmentsCross(a[i - 1], p, b[j - 1], r)));

function boxOnPath(box, points) {
  const inside = (p) =>
    p.x > box.x + 0.5 &&
    p.x < box.x + box.width - 0.5 &&
    p.y > box.y + 0.5 &&
    p.y < box.y + box.height - 0.5;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    for (let t = 0; t <= 1; t += 0.02) {
      if (inside({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t })) return true;
    }
  }
  return false;
}

/** Note leaders crossing a self-loop, and self-loop labels lying on their own loop. */
function loopDefects(type, l) {
  const edges = drawn(type, l).edges;
  const loops = edges.filter((e) => e.from === e.to);
  let leaders = 0;
  for (const n of l.notes ?? []) for (const e of loops) if (pathsCross(n.link, e.points)) leaders++;
  let labels = 0;
  for (const e of loops) {
    const box = e.label?.background ?? e.label?.box;
    if (box && boxOnPath(box, e.points)) labels++;
  }
  return { leaders, labels };
}

/** Lines longer than their ends' distance by more than twice it plus 200 units: gone round. */
function detours(type, l) {
  let count = 0;
  for (const e of drawn(type, l).edges) {
    if (e.from === e.to) continue;
    let length = 0;
    for (let i = 1; i < e.points.length; i++) {
      length +=
        Math.abs(e.points[i].x - e.points[i - 1].x) + Math.abs(e.points[i].y - e.points[i - 1].y);
    }
    const [a, b] = [e.points[0], e.points.at(-1)];
    const direct = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
    if (length > 2 * direct + 200) count++;
  }
  return count;
}

async function layOut(source) {
  const checked = await validateSource(source);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  const type = checked.diagram.diagram_type;
  const t = await loadType(type);
  const started = performance.now();
  const l = await t.layout(checked.diagram);
  return { type, l, ms: performance.now() - started };
}

function tally(type, l) {
  const b = backward(type, l);
  const loops = loopDefects(type, l);
  const ratio = l.width / l.height;
  return {
    needless: b.needless,
    excess: b.excess,
    heads: sharedHeads(type, l),
    leaders: loops.leaders,
    loopLabels: loops.labels,
    wide: ratio > 2.5 || ratio < 1 / 2.5 ? 1 : 0,
    detours: detours(type, l),
  };
}

function add(sum, t) {
  for (const [k, v] of Object.entries(t)) sum[k] = (sum[k] ?? 0) + v;
}

const seeds = Number(process.argv[2] ?? 200);
const detail = process.argv.includes("--detail");
console.log(
  "| drawings | needless back | excess back | shared heads | leader×loop | loop label on loop | aspect > 2.5 | detours | layout ms (mean / max) |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const examples = {};
for (const f of readdirSync(EXAMPLES).filter((f) => f.endsWith(".json"))) {
  const source = readFileSync(join(EXAMPLES, f), "utf8");
  if (!TYPES.includes(JSON.parse(source).diagram_type)) continue;
  const { type, l, ms } = await layOut(source);
  const t = tally(type, l);
  add(examples, t);
  if (detail) console.error(f, JSON.stringify(t), `${ms.toFixed(0)} ms`, `${l.width}×${l.height}`);
}
console.log(`| examples | ${Object.values(examples).join(" | ")} | |`);
const CASES = fileURLToPath(new URL("./graph-defects/", import.meta.url));
const cases = {};
for (const f of readdirSync(CASES).filter((f) => f.endsWith(".json"))) {
  const { type, l } = await layOut(readFileSync(join(CASES, f), "utf8"));
  const t = tally(type, l);
  add(cases, t);
  if (detail) console.error(f, JSON.stringify(t));
}
console.log(`| hub, final-state and loop cases | ${Object.values(cases).join(" | ")} | |`);
for (const type of TYPES) {
  const sum = {};
  const times = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { l, ms } = await layOut(JSON.stringify(CORPUS[type](seed)));
    const t = tally(type, l);
    add(sum, t);
    times.push(ms);
    if (detail && Object.values(t).some((v) => v > 0)) console.error(type, seed, JSON.stringify(t));
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `| ${type} × ${seeds} | ${Object.values(sum).join(" | ")} | ${mean.toFixed(0)} / ${Math.max(...times).toFixed(0)} |`,
  );
}
