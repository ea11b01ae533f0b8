import { defineConfig } from "vitest/config";
import { FAST } from "../../scripts/test-tiers.mjs";
import { WAITING } from "../../scripts/test-workers.mjs";

// `npm run test:fast` runs only the files that start no gateway, store, process or browser (the
// others need PostgreSQL and Redis too); see scripts/test-tiers.mjs.
const UNIT = [
  "test/auth-units.test.ts",
  "test/config.test.ts",
  "test/contract.test.ts",
  "test/ids.test.ts",
  "test/webhook-sender.test.ts",
];

export default defineConfig({
  test: {
    name: "gateway",
    ...WAITING,
    // One temporary folder per run, removed at its end (scripts/test-tmpdir.mjs).
    globalSetup: ["../../scripts/test-tmpdir.mjs"],
    include: FAST ? UNIT : ["test/**/*.test.ts"],
    // RSA key generation and SQLite files make some suites slower than the default 5 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
