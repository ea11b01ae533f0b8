// Turns vitest's JSON report into the plain closing line "N passed, N failed, N skipped".
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const brokenFiles = report.numFailedTestSuites ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (brokenFiles > 0) console.log(`${brokenFiles} test file(s) failed to run`);
if (passed === 0 || failed > 0 || brokenFiles > 0) process.exit(1);
