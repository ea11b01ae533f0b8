#!/usr/bin/env node
// `npm run test:fast`: the whole workspace without the slow files each workspace lists (see
// test-tiers.mjs). Extra arguments go to vitest.
import { spawnSync } from "node:child_process";

const result = spawnSync("npx", ["vitest", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ORDERLINE_TEST_FAST: "1" },
  shell: process.platform === "win32",
});
process.exit(result.status ?? 1);
