import { defineConfig } from "vitest/config";
import LongestFirst from "./scripts/test-sequencer.mjs";
import { COMPUTING } from "./scripts/test-workers.mjs";

// One run over every workspace package; each package keeps its own vitest.config.ts
// (environment, setup files, how many of its files run at once: scripts/test-workers.mjs), so
// `npm test` at the root and in a package agree.
export default defineConfig({
  test: {
    // Longest file first across the workspaces, from committed durations (see the file).
    sequence: { sequencer: LongestFirst },
    projects: [
      "packages/*",
      "apps/*",
      // The repository's own checks and scripts (docs paths, the Chromium finder).
      { test: { name: "repo", include: ["scripts/test/**/*.test.mjs"], ...COMPUTING } },
    ],
  },
});
