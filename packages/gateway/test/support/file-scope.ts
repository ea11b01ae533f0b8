/**
 * State a shared test-support module keeps for one test file, reset after each file.
 *
 * The gateway's test files share their worker's loaded modules (`isolate: false` in
 * vitest.config.ts: loading the gateway afresh for every file was a quarter of the suite's CPU),
 * so a support module is evaluated once per worker and its module state outlives the file that
 * made it. Such a module registers its reset here once; test/support/each-file.ts, a setup file
 * vitest runs before every test file, runs them all after the file's own hooks. Workspaces whose
 * tests use these modules (the partner SDK, the console) list that setup file too: without it a
 * file's PostgreSQL database would never be dropped.
 */
const resets = new Set<() => unknown>();

/** Runs `reset` after every test file from now on (once per function, however often called). */
export function afterEachFile(reset: () => unknown): void {
  resets.add(reset);
}

/** The resets, in the order they were registered (called by test/support/each-file.ts). */
export async function endFile(): Promise<void> {
  for (const reset of resets) await reset();
}
