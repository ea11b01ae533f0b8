import { defineConfig } from "vitest/config";

// One run over every workspace package; each package keeps its own vitest.config.ts
// (environment, setup files), so `npm test` at the root and in a package agree.
export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/*",
      // The repository's own checks and scripts (docs paths, the Chromium finder).
      { test: { name: "repo", include: ["scripts/test/**/*.test.mjs"] } },
    ],
  },
});
