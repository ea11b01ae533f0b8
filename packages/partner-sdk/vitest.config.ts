import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "partner-sdk",
    include: ["test/**/*.test.ts"],
    // Each file starts a real gateway and generates RSA keys: slower than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
