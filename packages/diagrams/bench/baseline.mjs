// Cold CLI renders (or validations) of this build against another build of the package (e.g. a checkout of an
// earlier commit, built), run in turn - this, other, this, other - so that drift in the
// machine's speed hits both alike; prints medians and the median of the per-pair ratios.
//
//   node bench/baseline.mjs OTHER_PACKAGE_DIR [RUNS] [render|validate]
//
// OTHER_PACKAGE_DIR is the other build's packages/diagrams (with dist/ built).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, timeProcess } from "./lib.mjs";
import { formatRows } from "./validate.mjs";
import { generateWorkflow } from "./workload.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const [otherDir, runsArg, command = "render"] = process.argv.slice(2);
if (!otherDir || !["render", "validate"].includes(command)) {
  console.error("usage: node bench/baseline.mjs OTHER_PACKAGE_DIR [RUNS] [render|validate]");
  process.exit(2);
}
const RUNS = Number(runsArg ?? 30);
const dir = mkdtempSync(join(tmpdir(), "orderline-bench-baseline-"));
const large = join(dir, "large.json");
writeFileSync(
  large,
  JSON.stringify(generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 }), null, 2),
);
const files = [
  ["partner-order-flow", join(PACKAGE, "../../examples/diagrams/partner-order-flow.json")],
  ["generated 120 nodes", large],
];
const builds = [
  ["this build", join(PACKAGE, "dist/cli/main.js")],
  ["other build", join(resolve(otherDir), "dist/cli/main.js")],
];

const rows = [];
for (const [label, file] of files) {
  const samples = builds.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    builds.forEach(([, bin], b) => {
      const args = command === "render" ? [file, "-o", join(dir, `${b}.svg`)] : [file];
      samples[b].push(...timeProcess([bin, command, ...args], 1));
    });
  }
  builds.forEach(([name], b) => {
    const what = command === "render" ? `render ${label} → svg` : `validate ${label}`;
    rows.push(summarize(`cold ${what}: ${name}`, samples[b]));
  });
  const ratios = samples[0].map((ms, i) => ms / samples[1][i]);
  const ratio = summarize("ratio", ratios);
  console.log(`${label}: this/other, median of ${RUNS} pairs: ${ratio.median.toFixed(3)}`);
}
console.log(formatRows(rows));
