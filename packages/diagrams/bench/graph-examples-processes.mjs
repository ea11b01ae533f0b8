// CPU time per in-process SVG render of the graph-type examples, each build in processes of its
// own (graph-examples-cpu.mjs runs both in one process, which favours the build loaded second):
// the builds alternate ROUNDS times; each process makes WARMUP calls per example, then 40 blocks
// of 5 and prints the median. The table gives, per build, the mean of the two middle medians of
// four rounds (the middle one of an odd number). Measures dist/ (build first).
//
//   node bench/graph-examples-processes.mjs [OTHER_PACKAGE_DIR]   (ROUNDS=4 WARMUP=30)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLES = join(PACKAGE, "../../examples/diagrams");
const GRAPH_TYPES = ["lifecycle", "architecture", "data-flow"];
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WARMUP = Number(process.env.WARMUP ?? 30);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(dir) {
  const lib = await import(join(dir, "dist/index.js"));
  const out = {};
  for (const file of readdirSync(EXAMPLES).sort()) {
    if (!file.endsWith(".json")) continue;
    const source = readFileSync(join(EXAMPLES, file), "utf8");
    if (!GRAPH_TYPES.includes(JSON.parse(source).diagram_type)) continue;
    const { diagram } = await lib.validateSource(source);
    for (let i = 0; i < WARMUP; i++) await lib.exportDiagram(diagram, "svg");
    const times = [];
    for (let i = 0; i < 200; i++) {
      const before = process.cpuUsage();
      await lib.exportDiagram(diagram, "svg");
      const used = process.cpuUsage(before);
      times.push((used.user + used.system) / 1000);
    }
    out[file.replace(/\.json$/, "")] = median(times);
  }
  return out;
}

if (process.argv[2] === "--child") {
  console.log(JSON.stringify(await measure(process.argv[3])));
} else {
  const builds = [PACKAGE, process.argv[2]].filter(Boolean);
  const runs = builds.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, dir] of builds.entries()) {
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dir]);
      runs[k].push(JSON.parse(line.toString()));
    }
  }
  const middle = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const h = s.length >> 1;
    return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
  };
  console.log(
    builds.length > 1 ? "| example | this build | other build |" : "| example | CPU ms |",
  );
  console.log(builds.length > 1 ? "| --- | ---: | ---: |" : "| --- | ---: |");
  for (const example of Object.keys(runs[0][0])) {
    const cells = runs.map((r) => `${middle(r.map((m) => m[example])).toFixed(2)} ms`);
    console.log(`| ${example} | ${cells.join(" | ")} |`);
  }
}
