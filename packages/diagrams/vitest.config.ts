import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "diagrams",
    include: ["test/**/*.test.ts"],
    // PNG, PDF and process tests take a few seconds on a loaded 2-core machine; the default 5 s
    // made them fail for speed, which is not what they test.
    testTimeout: 30_000,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs); builds dist/
    // when it is older than the source, for the tests that run the CLI process.
    globalSetup: ["../../scripts/test-tmpdir.mjs", "test/global-setup.ts"],
  },
});
