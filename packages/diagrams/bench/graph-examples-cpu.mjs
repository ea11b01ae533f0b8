// CPU time per in-process SVG render (layout + SVG) of the graph-type examples: the graph
// target is under 5 ms each. CPU time (user + system, process.cpuUsage) is what a call costs
// whatever else the machine runs; waiting for a core does not count. With another build of the
// package (e.g. main, built apart), the two alternate in blocks of 5 calls and the table shows
// both medians side by side. Measures dist/ (run `npm run build -w @orderline/diagrams` first).
//
//   node bench/graph-examples-cpu.mjs [OTHER_PACKAGE_DIR]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = join(PACKAGE, "../../examples/diagrams");
const GRAPH_TYPES = ["lifecycle", "architecture", "data-flow"];
const WARMUP = 10;
const BLOCKS = 8;
const BLOCK = 5;

const builds = [PACKAGE, process.argv[2]].filter(Boolean);
const loaded = await Promise.all(builds.map((dir) => import(join(dir, "dist/index.js"))));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function cpuMs(lib, diagram) {
  const before = process.cpuUsage();
  await lib.exportDiagram(diagram, "svg");
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const head = builds.length > 1 ? "| example | this build | other build |" : "| example | CPU ms |";
console.log(head);
console.log(builds.length > 1 ? "| --- | ---: | ---: |" : "| --- | ---: |");
for (const file of readdirSync(EXAMPLES).sort()) {
  if (!file.endsWith(".json")) continue;
  const source = readFileSync(join(EXAMPLES, file), "utf8");
  if (!GRAPH_TYPES.includes(JSON.parse(source).diagram_type)) continue;
  const diagrams = await Promise.all(
    loaded.map(async (lib) => (await lib.validateSource(source)).diagram),
  );
  const times = loaded.map(() => []);
  for (let i = 0; i < WARMUP; i++)
    for (const [k, lib] of loaded.entries()) await cpuMs(lib, diagrams[k]);
  for (let b = 0; b < BLOCKS; b++) {
    for (const [k, lib] of loaded.entries()) {
      for (let i = 0; i < BLOCK; i++) times[k].push(await cpuMs(lib, diagrams[k]));
    }
  }
  const cells = times.map((t) => `${median(t).toFixed(2)} ms`);
  console.log(`| ${file.replace(/\.json$/, "")} | ${cells.join(" | ")} |`);
}
