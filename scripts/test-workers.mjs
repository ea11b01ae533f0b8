import { availableParallelism } from "node:os";

/**
 * How many test files run at once, per kind of workspace. Vitest runs projects of different
 * `maxWorkers` one group after the other (`sequence.groupOrder`), so the run has two phases:
 *
 * - WAITING (the gateway): files that spend most of their time on sockets, child processes,
 *   PostgreSQL, Redis and timers. Two files per core keep the cores busy.
 * - COMPUTING (diagrams, i18n, console, the repository's checks): layout property tests,
 *   PNG/PDF rendering, jsdom and Chromium, which use a core each. One file per core and one
 *   more: with one per core the machine used 1.3–1.5 of its 2 cores while the console's browser
 *   files ran (each waits for Playwright's polling between its bursts of work), and the one more
 *   took the run from 254 s to 231 s; at two per core the diagram property tests took twice as
 *   long and hit their time limits. The partner SDK too (see its vitest.config.ts).
 *
 * ORDERLINE_TEST_WORKERS sets one count for both (1 runs files one by one).
 */
const override = Number(process.env.ORDERLINE_TEST_WORKERS) || undefined;
const cores = availableParallelism();

export const WAITING = {
  maxWorkers: override ?? cores * 2,
  sequence: { groupOrder: 0 },
};

export const COMPUTING = {
  maxWorkers: override ?? cores + 1,
  sequence: { groupOrder: 1 },
};
