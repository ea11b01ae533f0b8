import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Test files run side by side: most of their time is spent waiting on sockets, child
// processes and timers, not on the CPU, so vitest's default for a 2-core machine (one file at
// a time) left the cores idle. ORDERLINE_TEST_WORKERS overrides it (1 runs files one by one).
const workers = Number(process.env.ORDERLINE_TEST_WORKERS) || Math.max(4, availableParallelism());

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
