// Validation timings for the diagrams benchmark: validateSource in-process (examples, a
// 30-node and a large generated workflow, valid and with problems) and `validate` as a cold
// CLI process. bench/run.mjs calls benchValidate(); `node bench/validate.mjs` prints them alone.
// Needs a build (npm run build) first: it measures dist/, what users run.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { generateWorkflow } from "./workload.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = join(PACKAGE, "../../examples/diagrams");
const BIN = join(PACKAGE, "dist/cli/main.js");

/** Descriptions the benchmark uses, as JSON text: the examples plus generated workflows. */
function validateWorkloads() {
  const workloads = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ name: `example ${f}`, text: readFileSync(join(EXAMPLES, f), "utf8") }));
  const medium = generateWorkflow({ lanes: 5, cols: 6, nodes: 30, edges: 45 });
  const large = generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 });
  workloads.push({ name: "generated 30 nodes", text: JSON.stringify(medium, null, 2) });
  workloads.push({ name: "generated 120 nodes, 200 edges", text: JSON.stringify(large, null, 2) });
  // The same large workflow with ten mistakes spread through it: the path users hit most.
  const broken = structuredClone(large);
  for (let i = 0; i < 10; i++) {
    const node = broken.nodes[i * 11];
    if (i % 2 === 0) node.lable = node.label;
    else node.type = "servce";
  }
  workloads.push({
    name: "generated 120 nodes, 10 problems",
    text: JSON.stringify(broken, null, 2),
  });
  return workloads;
}

/**
 * Median and p95 (ms) of validateSource in-process per workload, and of a cold
 * `orderline-diagrams validate` process next to a bare `node -e 0` start for scale.
 */
export async function benchValidate({ runs = 200, coldRuns = 15 } = {}) {
  const { validateSource } = await import("../dist/validate/index.js");
  const rows = [];
  for (const { name, text } of validateWorkloads()) {
    rows.push(
      summarize(`validateSource: ${name}`, await timeInProcess(() => validateSource(text), runs)),
    );
  }
  const partner = join(EXAMPLES, "partner-order-flow.json");
  const large = join(tmpdir(), "orderline-bench-large.json");
  writeFileSync(
    large,
    validateWorkloads().find((w) => w.name.startsWith("generated 120 nodes,")).text,
  );
  rows.push(summarize("cold process: node -e 0 (baseline)", timeProcess(["-e", "0"], coldRuns)));
  rows.push(
    summarize(
      "cold process: validate partner-order-flow.json",
      timeProcess([BIN, "validate", partner], coldRuns),
    ),
  );
  rows.push(
    summarize(
      "cold process: validate generated 120 nodes",
      timeProcess([BIN, "validate", large], coldRuns),
    ),
  );
  return rows;
}

export function formatRows(rows) {
  const lines = ["| Case | Median ms | p95 ms | Runs |", "|---|---:|---:|---:|"];
  for (const r of rows)
    lines.push(`| ${r.name} | ${r.median.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.runs} |`);
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatRows(await benchValidate()));
}
