import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "gateway",
    include: ["test/**/*.test.ts"],
    // RSA key generation and SQLite files make some suites slower than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
