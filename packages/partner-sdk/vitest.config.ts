import { configDefaults, defineConfig } from "vitest/config";
import { slowFiles } from "../../scripts/test-tiers.mjs";
import { COMPUTING } from "../../scripts/test-workers.mjs";

// Left out of `npm run test:fast`: processes, browsers, fault injection (scripts/test-tiers.mjs).
const SLOW = [
  "test/cli.test.ts",
  "test/examples.test.ts",
  "test/webhook-examples.test.ts",
  "test/client.test.ts",
  "test/listen.test.ts",
  "test/webhook-delivery.test.ts",
  "test/self-service.test.ts",
  "test/contract-types.test.ts",
  "test/pack.test.ts",
  "test/python-sdk.test.ts",
  "test/java-sdk.test.ts",
  "test/conformance.test.ts",
];

export default defineConfig({
  test: {
    name: "partner-sdk",
    // With the computing files although its files mostly wait. test/pack.test.ts runs `npm
    // pack`, which rebuilds the dist/ that the CLI tests run: the new dist is swapped in by
    // renames (scripts/fresh-dist.mjs), a window of microseconds; when the rebuild emptied
    // dist/ first, CLI tests beside it failed with ERR_MODULE_NOT_FOUND.
    ...COMPUTING,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-fresh-build.mjs", "../../scripts/test-tmpdir.mjs"],
    include: ["test/**/*.test.ts"],
    // Its files use the gateway's test stores, whose per-file state (a PostgreSQL database per
    // file) the gateway's setup file ends after each file (gateway test/support/file-scope.ts),
    // also when a worker's files share its modules (docs/decisions.md).
    isolate: false,
    setupFiles: ["../gateway/test/support/each-file.ts"],
    exclude: [...configDefaults.exclude, ...slowFiles(SLOW)],
    // Each file starts a real gateway and generates RSA keys: slower than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
