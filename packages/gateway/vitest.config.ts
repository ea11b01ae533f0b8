import { defineConfig } from "vitest/config";
import { FAST } from "../../scripts/test-tiers.mjs";
import { WAITING } from "../../scripts/test-workers.mjs";

// `npm run test:fast` runs only the files that start no gateway, store, process or browser (the
// others need PostgreSQL and Redis too); see scripts/test-tiers.mjs.
const UNIT = [
  "test/auth-units.test.ts",
  "test/contract.test.ts",
  "test/ids.test.ts",
  "test/webhook-retry-window.test.ts",
  "test/webhook-sender.test.ts",
];

export default defineConfig({
  test: {
    name: "gateway",
    ...WAITING,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-fresh-build.mjs", "../../scripts/test-tmpdir.mjs"],
    // A worker loads the gateway once for all the files it runs, not once per file: importing it
    // afresh for each file was about a quarter of the suite's CPU. What the shared support
    // modules keep per file is reset after each file (test/support/file-scope.ts).
    isolate: false,
    setupFiles: ["test/support/each-file.ts"],
    include: FAST ? UNIT : ["test/**/*.test.ts"],
    // Limits that end a hung test, not speed checks (those are benchmarks): processes, RSA keys
    // and two files per core (scripts/test-workers.mjs) on a shared 2-core machine took some
    // tests past 30 s under load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
