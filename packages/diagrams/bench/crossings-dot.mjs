// Crossings per drawing, this package's layered layout against Graphviz dot, on the seeded
// corpus of graph-type descriptions (bench/graph-corpus.mjs). Each drawing is given to dot as
// what the layout drew (the same boxes, sizes, nesting as clusters, edges with their labels,
// rankdir as the layout chose), and crossings are counted the same way on both: pairs of
// edges' line pieces that cross, away from their ends (dot's curves sampled to polylines).
// Needs `dot` on PATH (Debian: apt-get install graphviz) and a built dist/; dot is a benchmark
// tool only, never a dependency of the package.
//   node bench/crossings-dot.mjs [graphs per type, default 100]   (PER=1: one line per graph)
//   TYPES=architecture,data-flow: only those types
import { spawnSync } from "node:child_process";
import { validateSource } from "../dist/index.js";
import { loadType } from "../dist/types/index.js";
import { CORPUS } from "./graph-corpus.mjs";

const COUNT = Number(process.argv[2] ?? 100);
const PX = 72; // points per inch: dot sizes nodes in inches

/** What a layout drew, as one shape for every graph type. */
function drawnGraph(type, l) {
  if (type === "lifecycle") {
    const composite = new Set(l.states.filter((s) => s.shape === "composite").map((s) => s.id));
    return {
      leaves: l.states.filter((s) => !composite.has(s.id)).map((s) => ({ ...s, label: s.id })),
      groups: l.states.filter((s) => composite.has(s.id)),
      edges: l.transitions.map((t) => ({ ...t, text: t.label ? "label" : "" })),
      notes: l.notes,
    };
  }
  const leaves = l.elements;
  const edges = type === "architecture" ? l.relationships : l.flows;
  return { leaves, groups: l.boundaries, edges: edges.map((e) => ({ ...e, text: "label" })) };
}

function toDot(g, rankdir) {
  const lines = [
    "digraph G {",
    `  rankdir=${rankdir}; compound=true; nodesep=0.4; ranksep=0.6;`,
    "  node [shape=box, fixedsize=true, fontsize=11];",
  ];
  const kids = new Map();
  for (const n of [...g.leaves, ...g.groups]) {
    const list = kids.get(n.parent) ?? [];
    list.push(n);
    kids.set(n.parent, list);
  }
  const groupIds = new Set(g.groups.map((b) => b.id));
  const anchor = new Map();
  const q = (s) => JSON.stringify(s);
  const emit = (parent, indent) => {
    for (const n of kids.get(parent) ?? []) {
      if (groupIds.has(n.id)) {
        lines.push(`${indent}subgraph ${q(`cluster_${n.id}`)} {`);
        emit(n.id, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        const w = (n.box.width / PX).toFixed(3);
        const h = (n.box.height / PX).toFixed(3);
        lines.push(`${indent}${q(n.id)} [width=${w}, height=${h}, label=""];`);
      }
    }
  };
  emit(undefined, "  ");
  // An edge to a cluster ends at one of its leaves, clipped at the cluster (lhead/ltail).
  const firstLeaf = (id) => {
    if (anchor.has(id)) return anchor.get(id);
    for (const n of kids.get(id) ?? []) {
      const leaf = groupIds.has(n.id) ? firstLeaf(n.id) : n.id;
      if (leaf) {
        anchor.set(id, leaf);
        return leaf;
      }
    }
    return undefined;
  };
  for (const e of g.edges) {
    const a = groupIds.has(e.from) ? firstLeaf(e.from) : e.from;
    const b = groupIds.has(e.to) ? firstLeaf(e.to) : e.to;
    if (!a || !b) continue;
    const attrs = [];
    if (a !== e.from) attrs.push(`ltail=${q(`cluster_${e.from}`)}`);
    if (b !== e.to) attrs.push(`lhead=${q(`cluster_${e.to}`)}`);
    if (e.text) attrs.push(`label=${q(e.text)}, fontsize=11`);
    lines.push(`  ${q(a)} -> ${q(b)} [${attrs.join(", ")}];`);
  }
  lines.push("}");
  return lines.join("\n");
}

/** Dot's edges as polylines, from its JSON output's draw operations (curves sampled). */
function dotEdges(json) {
  const out = [];
  for (const e of json.edges ?? []) {
    const ops = (e._draw_ ?? []).filter((o) => o.op === "b" || o.op === "B");
    const pts = [];
    for (const o of ops) {
      const p = o.points;
      for (let i = 0; i + 3 < p.length; i += 3) {
        for (let k = 0; k <= 8; k++) {
          const t = k / 8;
          const u = 1 - t;
          const x =
            u ** 3 * p[i][0] +
            3 * u * u * t * p[i + 1][0] +
            3 * u * t * t * p[i + 2][0] +
            t ** 3 * p[i + 3][0];
          const y =
            u ** 3 * p[i][1] +
            3 * u * u * t * p[i + 1][1] +
            3 * u * t * t * p[i + 2][1] +
            t ** 3 * p[i + 3][1];
          pts.push({ x, y });
        }
      }
    }
    if (pts.length > 1) out.push(pts);
  }
  return out;
}

function cross(p1, p2, p3, p4) {
  const d = (a, b, c) => (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  const d1 = d(p3, p4, p1);
  const d2 = d(p3, p4, p2);
  const d3 = d(p1, p2, p3);
  const d4 = d(p1, p2, p4);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** Pairs of lines crossing (each crossing point once), away from the lines' ends. */
export function crossings(lines, endGap = 4) {
  let n = 0;
  const near = (p, line) =>
    [line[0], line[line.length - 1]].some((q) => Math.hypot(p.x - q.x, p.y - q.y) < endGap);
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i];
      const b = lines[j];
      for (let s = 1; s < a.length; s++) {
        for (let t = 1; t < b.length; t++) {
          if (!cross(a[s - 1], a[s], b[t - 1], b[t])) continue;
          if (near(a[s], b) || near(a[s - 1], b) || near(b[t], a) || near(b[t - 1], a)) continue;
          n++;
        }
      }
    }
  }
  return n;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log(`crossings per drawing, ${COUNT} seeded graphs per type (ours vs Graphviz dot)`);
console.log(
  "type          median ours  median dot  mean ours  mean dot  ours<=dot  dot ms/graph\n",
);
const only = process.env.TYPES?.split(",");
for (const [name, generate] of Object.entries(CORPUS)) {
  if (only && !only.includes(name)) continue;
  const loaded = await loadType(name);
  const type = loaded.type ?? loaded;
  const ours = [];
  const theirs = [];
  let atMost = 0;
  let dotMs = 0;
  for (let seed = 1; seed <= COUNT; seed++) {
    const checked = await validateSource(JSON.stringify(generate(seed)));
    if (!checked.ok) throw new Error(`${name} ${seed} does not validate`);
    const l = await type.layout(checked.diagram);
    const g = drawnGraph(name, l);
    const ourCount = crossings(g.edges.map((e) => e.points));
    const tall = l.width < l.height;
    const started = performance.now();
    const run = spawnSync("dot", ["-Tjson"], { input: toDot(g, tall ? "TB" : "LR") });
    dotMs += performance.now() - started;
    if (run.status !== 0) throw new Error(`dot failed on ${name} ${seed}: ${run.stderr}`);
    const dotCount = crossings(dotEdges(JSON.parse(run.stdout.toString())));
    ours.push(ourCount);
    theirs.push(dotCount);
    if (ourCount <= dotCount) atMost++;
    if (process.env.PER) console.log(name, seed, ourCount, dotCount);
  }
  console.log(
    `${name.padEnd(14)}${String(median(ours)).padStart(11)}${String(median(theirs)).padStart(12)}${mean(ours).toFixed(2).padStart(11)}${mean(theirs).toFixed(2).padStart(10)}${`${atMost}/${COUNT}`.padStart(11)}${(dotMs / COUNT).toFixed(1).padStart(14)}`,
  );
}
