import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "partner-sdk",
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-tmpdir.mjs"],
    include: ["test/**/*.test.ts"],
    // Each file starts a real gateway and generates RSA keys: slower than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
