// The diagrams benchmark: validation (bench/validate.mjs) and rendering timings, in-process and
// as cold CLI processes, for the examples and generated workflows. Measures dist/, what users
// run; `npm run bench` builds first. Prints one Markdown table of medians (and p95).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchArchitecture } from "./architecture.mjs";
import { benchDataFlow } from "./data-flow.mjs";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { benchLifecycle } from "./lifecycle.mjs";
import { benchSequence } from "./sequence.mjs";
import { benchValidate, formatRows } from "./validate.mjs";
import { generateWorkflow } from "./workload.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = join(PACKAGE, "../../examples/diagrams");
const BIN = join(PACKAGE, "dist/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);

const { layoutDiagram } = await import("../dist/types/workflow/layout/index.js");
const { renderSvg } = await import("../dist/types/workflow/render.js");
const { exportDiagram } = await import("../dist/export/index.js");

const workloads = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".json"))
  // Other types' examples have their own workloads (bench/sequence.mjs).
  .filter((f) => JSON.parse(readFileSync(join(EXAMPLES, f), "utf8")).diagram_type === "workflow")
  .sort()
  .map((f) => ({
    name: `example ${f}`,
    diagram: JSON.parse(readFileSync(join(EXAMPLES, f), "utf8")),
  }));
workloads.push({
  name: "generated 30 nodes, 45 edges",
  diagram: generateWorkflow({ lanes: 5, cols: 6, nodes: 30, edges: 45 }),
});
const large = generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 });
workloads.push({ name: "generated 20 lanes, 120 nodes, 200 edges", diagram: large });

const rows = [];
for (const { name, diagram } of workloads) {
  rows.push(
    summarize(`layoutDiagram: ${name}`, await timeInProcess(() => layoutDiagram(diagram), RUNS)),
  );
  rows.push(
    summarize(
      `renderSvg (layout + SVG): ${name}`,
      await timeInProcess(() => renderSvg(diagram), RUNS),
    ),
  );
}
const partner = workloads.find((w) => w.name.includes("partner-order-flow")).diagram;
rows.push(
  summarize(
    "PNG in-process: partner-order-flow",
    await timeInProcess(() => exportDiagram(partner, "png"), 20),
  ),
);
rows.push(
  summarize(
    "PDF in-process: partner-order-flow",
    await timeInProcess(() => exportDiagram(partner, "pdf"), 10),
  ),
);
rows.push(
  summarize(
    "HTML in-process: partner-order-flow",
    await timeInProcess(() => exportDiagram(partner, "html"), 50),
  ),
);

const dir = mkdtempSync(join(tmpdir(), "orderline-bench-render-"));
const largeFile = join(dir, "large.json");
writeFileSync(largeFile, JSON.stringify(large, null, 2));
const partnerFile = join(EXAMPLES, "partner-order-flow.json");
rows.push(summarize("cold process: node -e 0 (baseline)", timeProcess(["-e", "0"], COLD_RUNS)));
for (const [label, file] of [
  ["partner-order-flow", partnerFile],
  ["generated 120 nodes", largeFile],
]) {
  for (const format of ["svg", "png", "pdf", "html"]) {
    rows.push(
      summarize(
        `cold process: render ${label} → ${format}`,
        timeProcess(
          [BIN, "render", file, "-o", join(dir, `out.${format}`)],
          format === "pdf" ? Math.min(COLD_RUNS, 7) : COLD_RUNS,
        ),
      ),
    );
  }
}

const sequence = await benchSequence({
  runs: RUNS,
  coldRuns: COLD_RUNS,
  mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
});
const lifecycle = await benchLifecycle({
  runs: Math.min(RUNS, 50),
  coldRuns: COLD_RUNS,
  mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
});
const architecture = await benchArchitecture({
  runs: Math.min(RUNS, 50),
  coldRuns: COLD_RUNS,
  mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
});
const dataFlow = await benchDataFlow({
  runs: Math.min(RUNS, 30),
  coldRuns: COLD_RUNS,
  mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
});
const validation = await benchValidate({ runs: RUNS, coldRuns: COLD_RUNS });
console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
console.log(
  formatRows([
    ...validation,
    ...rows,
    ...sequence.rows,
    ...lifecycle.rows,
    ...architecture.rows,
    ...dataFlow.rows,
  ]),
);
if (architecture.ratio !== undefined) {
  console.log(
    `\nmmdc / orderline cold architecture SVG (medians): ${architecture.ratio.toFixed(1)}×`,
  );
}
if (lifecycle.ratio !== undefined) {
  console.log(`\nmmdc / orderline cold lifecycle SVG (medians): ${lifecycle.ratio.toFixed(1)}×`);
}
if (dataFlow.ratio !== undefined) {
  console.log(`\nmmdc / orderline cold data-flow SVG (medians): ${dataFlow.ratio.toFixed(1)}×`);
}
if (sequence.speedUp !== undefined) {
  console.log(
    `\nSequence, cold CLI SVG vs mmdc: ${sequence.speedUp.toFixed(1)}× faster (median over median)`,
  );
}
