// In-process Mermaid import + render of a 100-message sequence (target: under 50 ms). The
// Mermaid text is the export of a generated description with its `%% @orderline` lines
// removed: plain Mermaid, as a README holds it. One run reads the text, builds and checks the
// description (importToJson) and renders its SVG. Alternating with it, the same description
// rendered alone (no import), so the import's own cost shows on a loaded machine. Wall and CPU
// time (this process's user + system) per run. Measures dist/ (`npm run build` first).
import { performance } from "node:perf_hooks";
import { exportDiagram } from "../dist/index.js";
import { exportMermaid, importToJson } from "../dist/mermaid/index.js";
import { generateSequence } from "./sequence-workload.mjs";

const WARMUP = 20;
const RUNS = 80;
const description = generateSequence({ participants: 8, messages: 100 });
const text = (await exportMermaid(description))
  .split("\n")
  .filter((line) => !/^\s*%% @orderline/.test(line))
  .join("\n");
const first = await importToJson(text, { file: "bench.mmd" });
if (!first.ok) throw new Error(first.problems || JSON.stringify(first.issues));

async function timed(work) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}
const importAndRender = async () => {
  const imported = await importToJson(text, { file: "bench.mmd" });
  await exportDiagram(imported.diagram, "svg");
};
const importOnly = () => importToJson(text, { file: "bench.mmd" });
const renderOnly = () => exportDiagram(first.diagram, "svg");

const cases = [
  ["import + check + render", importAndRender],
  ["import + check", importOnly],
  ["render alone (baseline)", renderOnly],
];
for (let i = 0; i < WARMUP; i++) for (const [, work] of cases) await work();
const results = cases.map(() => ({ wall: [], cpu: [] }));
for (let i = 0; i < RUNS; i++) {
  for (const [k, [, work]] of cases.entries()) {
    const t = await timed(work);
    results[k].wall.push(t.wall);
    results[k].cpu.push(t.cpu);
  }
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(2);
const p95 = (list) => [...list].sort((a, b) => a - b)[Math.floor(0.95 * list.length)].toFixed(2);
console.log(
  `Mermaid sequence, 8 participants, 100+ messages (${text.split("\n").length} lines), ${RUNS} alternating runs:`,
);
for (const [k, [name]] of cases.entries()) {
  const r = results[k];
  console.log(
    `  ${name.padEnd(24)} wall median ${median(r.wall)} ms (p95 ${p95(r.wall)}), CPU median ${median(r.cpu)} ms`,
  );
}
