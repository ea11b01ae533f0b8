import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "console",
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-tmpdir.mjs"],
    include: ["test/**/*.test.ts"],
    environment: "node",
    // A real gateway, a real chromium: the shared 2-core machine can be slow.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
