import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "diagrams",
    include: ["test/**/*.test.ts"],
    // Builds dist/ when it is older than the source, for the tests that run the CLI process.
    globalSetup: ["test/global-setup.ts"],
  },
});
