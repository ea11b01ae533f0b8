// Turns vitest's JSON report into the plain closing line "N passed, N failed, N skipped", followed
// by each failed test's file, name and first lines of its error, so the end of CI's log names them.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const brokenFiles = report.numFailedTestSuites ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (brokenFiles > 0) console.log(`${brokenFiles} test file(s) failed to run`);

const firstLines = (text, count) =>
  String(text ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, count)
    .map((line) => `      ${line.slice(0, 240)}`)
    .join("\n");

for (const file of report.testResults ?? []) {
  const where = relative(process.cwd(), file.name ?? "");
  const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
  for (const test of failedTests) {
    console.log(`  FAILED ${where} > ${test.fullName}`);
    console.log(firstLines((test.failureMessages ?? []).join("\n"), 6));
  }
  if (failedTests.length === 0 && file.status === "failed") {
    console.log(`  FAILED TO RUN ${where}`);
    console.log(firstLines(file.message, 6));
  }
}
if (passed === 0 || failed > 0 || brokenFiles > 0) process.exit(1);
