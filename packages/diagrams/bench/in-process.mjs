// In-process layout + SVG of the sequence and lifecycle workloads (12 participants × 200 steps, 40 states),
// without the cold and mmdc parts of `bench:diagrams`: a quick check of the < 20 ms target.
// Measures dist/ (run `npm run build -w @orderline/diagrams` first).
import { performance } from "node:perf_hooks";
import { exportDiagram, validateSource } from "../dist/index.js";
import { generateLifecycle } from "./lifecycle-workload.mjs";
import { generateSequence } from "./sequence-workload.mjs";

const WARMUP = 20;
const RUNS = 60;
const cases = [
  ["sequence, 12 participants × 200 steps", generateSequence({ participants: 12, messages: 200 })],
  ["lifecycle, 40 states", generateLifecycle({ states: 40 })],
];
for (const [name, description] of cases) {
  const checked = await validateSource(JSON.stringify(description));
  if (!checked.ok) throw new Error(`${name}: the generated description does not validate`);
  for (let i = 0; i < WARMUP; i++) await exportDiagram(checked.diagram, "svg");
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await exportDiagram(checked.diagram, "svg");
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(RUNS - 1, Math.floor(q * RUNS))].toFixed(2);
  console.log(`${name}: median ${at(0.5)} ms, p95 ${at(0.95)} ms (${RUNS} runs)`);
}
