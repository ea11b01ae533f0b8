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
      // The Python and Java SDKs have no vitest files of their own: their builds and tests run
      // from packages/partner-sdk/test (python-sdk, java-sdk, conformance).
      "!packages/partner-sdk-python",
      "!packages/partner-sdk-java",
      "apps/*",
      // The repository's own checks and scripts (docs paths, the Chromium finder).
      { test: { name: "repo", include: ["scripts/test/**/*.test.mjs"], ...COMPUTING } },
    ],
  },
});
