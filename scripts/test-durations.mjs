#!/usr/bin/env node
// Refreshes scripts/test-durations.json (read by scripts/test-sequencer.mjs) from a JSON report:
//   npm test -- --reporter=default --reporter=json --outputFile=/tmp/suite.json
//   node scripts/test-durations.mjs /tmp/suite.json
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error("usage: node scripts/test-durations.mjs REPORT.json");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const report = JSON.parse(readFileSync(reportPath, "utf8"));
/** The vitest project a test file belongs to: its workspace folder's name, or the repository's. */
const projectOf = (path) => (path.startsWith("scripts/") ? "repo" : path.split("/")[1]);
const durations = Object.fromEntries(
  report.testResults
    .map((file) => {
      const path = relative(root, file.name);
      return [`${projectOf(path)}:${path}`, (file.endTime - file.startTime) / 1000];
    })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, s]) => [key, Math.round(s * 10) / 10]),
);
writeFileSync(
  fileURLToPath(new URL("./test-durations.json", import.meta.url)),
  `${JSON.stringify(durations, null, 2)}\n`,
);
console.log(`${Object.keys(durations).length} files`);
