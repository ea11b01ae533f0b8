import { configDefaults, defineConfig } from "vitest/config";
import { slowFiles } from "../../scripts/test-tiers.mjs";
import { COMPUTING } from "../../scripts/test-workers.mjs";

// Left out of `npm run test:fast`: processes, browsers, fault injection (scripts/test-tiers.mjs).
const SLOW = ["test/check.test.ts", "test/core-entry.test.ts", "test/pack.test.ts"];

export default defineConfig({
  test: {
    name: "i18n",
    ...COMPUTING,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-fresh-build.mjs", "../../scripts/test-tmpdir.mjs"],
    include: ["test/**/*.test.{ts,tsx}"],
    exclude: [...configDefaults.exclude, ...slowFiles(SLOW)],
    // Real React rendering in a DOM; tests that need plain Node say so in a file comment.
    environment: "jsdom",
    // A worker's files share its modules (docs/decisions.md): the tests keep no module state.
    isolate: false,
    setupFiles: ["test/support/cleanup-dom.ts"],
    // Some tests build the package or start Node; the shared 2-core machine can be slow.
    testTimeout: 20_000,
    // Compile-time checks (typed keys): files ending .test-d.ts are type-checked, not executed.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.{ts,tsx}"],
      tsconfig: "./test/types/tsconfig.json",
    },
  },
});
