import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One test file per core: vitest's default (cores - 1) runs one file at a time on a 2-core
// machine, where most files wait on sockets, processes and timers. Four per 2 cores was tried:
// the CPU-bound diagram property tests then hit their 30 s limit. ORDERLINE_TEST_WORKERS
// overrides it (1 runs files one by one).
const workers = Number(process.env.ORDERLINE_TEST_WORKERS) || availableParallelism();

// One run over every workspace package; each package keeps its own vitest.config.ts
// (environment, setup files), so `npm test` at the root and in a package agree.
export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      "packages/*",
      "apps/*",
      // The repository's own checks and scripts (docs paths, the Chromium finder).
      { test: { name: "repo", include: ["scripts/test/**/*.test.mjs"] } },
    ],
  },
});
