// In-process workflow renders of this build against another build of the package (e.g. main,
// built apart), alternating in blocks of 20 calls so that drift in a shared machine's speed
// hits both alike. Measures CPU time (user + system) per renderSvg call, which waiting for the
// CPU does not inflate, and prints a Markdown table with the ratio per workload.
//
//   node bench/paired.mjs OTHER_PACKAGE_DIR [CALLS]
//
// OTHER_PACKAGE_DIR is the other build's packages/diagrams (with dist/ built).
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateWorkflow } from "./workload.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = join(PACKAGE, "../../examples/diagrams");
const [otherDir, callsArg] = process.argv.slice(2);
if (!otherDir) {
  console.error("usage: node bench/paired.mjs OTHER_PACKAGE_DIR [CALLS]");
  process.exit(2);
}
const CALLS = Number(callsArg ?? 300);
const BLOCK = 20;

const workloads = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({
    name: f.replace(/\.json$/, ""),
    diagram: JSON.parse(readFileSync(join(EXAMPLES, f), "utf8")),
  }))
  .filter((w) => w.diagram.diagram_type === "workflow")
  .sort((p, q) => p.name.localeCompare(q.name));
workloads.push(
  {
    name: "generated 30 nodes, 45 edges",
    diagram: generateWorkflow({ lanes: 5, cols: 6, nodes: 30, edges: 45 }),
  },
  {
    name: "generated 120 nodes, 200 edges",
    diagram: generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 }),
    calls: Math.max(BLOCK, Math.round(CALLS / 5)),
  },
);

const builds = [
  await import(join(PACKAGE, "dist/types/workflow/render.js")),
  await import(join(resolve(otherDir), "dist/types/workflow/render.js")),
];
console.log("| Workload | other: CPU ms per call | this: CPU ms per call | this/other |");
console.log("|---|---:|---:|---:|");
for (const { name, diagram, calls = CALLS } of workloads) {
  for (let i = 0; i < 50; i++) for (const b of builds) b.renderSvg(diagram);
  const cpu = [0, 0];
  for (let block = 0; block < calls / BLOCK; block++) {
    // Each build goes first in every other block, so neither always inherits the other's garbage.
    const turn = block % 2 === 0 ? [0, 1] : [1, 0];
    turn.forEach((k) => {
      const b = builds[k];
      const start = process.cpuUsage();
      for (let i = 0; i < BLOCK; i++) b.renderSvg(diagram);
      const used = process.cpuUsage(start);
      cpu[k] += (used.user + used.system) / 1000;
    });
  }
  const [mine, other] = cpu.map((ms) => ms / calls);
  console.log(
    `| ${name} | ${other.toFixed(2)} | ${mine.toFixed(2)} | ${(mine / other).toFixed(2)} |`,
  );
}
