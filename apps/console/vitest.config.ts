import { configDefaults, defineConfig } from "vitest/config";
import { slowFiles } from "../../scripts/test-tiers.mjs";
import { COMPUTING } from "../../scripts/test-workers.mjs";

// Left out of `npm run test:fast`: processes, browsers, fault injection (scripts/test-tiers.mjs).
const SLOW = [
  "test/console.test.ts",
  "test/cors.test.ts",
  "test/order-actions.test.ts",
  "test/webhooks.test.ts",
  "test/bundle-contents.test.ts",
  "test/everyday-console.test.ts",
  "test/orders-desk.test.ts",
  "test/team.test.ts",
  "test/tenant-events.test.ts",
  "test/vocabulary.test.ts",
  "test/staff-reports.test.ts",
];

export default defineConfig({
  test: {
    name: "console",
    ...COMPUTING,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs); then one
    // Chromium for the run's browser files (test/support/chromium-server.ts).
    globalSetup: [
      "../../scripts/test-fresh-build.mjs",
      "../../scripts/test-tmpdir.mjs",
      "test/support/chromium-server.ts",
    ],
    include: ["test/**/*.test.ts"],
    // Its files use the gateway's test stores, whose per-file state (a PostgreSQL database per
    // file) the gateway's setup file ends after each file (gateway test/support/file-scope.ts).
    setupFiles: ["../../packages/gateway/test/support/each-file.ts"],
    exclude: [...configDefaults.exclude, ...slowFiles(SLOW)],
    environment: "node",
    // A worker's files share its modules (the gateway's dist, playwright-core, the console's
    // dictionaries) instead of loading them once per file. No file mocks modules or changes
    // globals; the gateway's per-file state ends in the setup file above.
    isolate: false,
    // A real gateway, a real chromium: the shared 2-core machine can be slow.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
