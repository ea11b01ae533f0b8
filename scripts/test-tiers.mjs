/**
 * `npm run test:fast` (scripts/test-fast.mjs) sets ORDERLINE_TEST_FAST=1: each workspace's
 * vitest.config.ts then leaves out the files it lists as slow (they start processes or
 * browsers, inject faults, or need the PostgreSQL and Redis servers), for a run of about a
 * minute during everyday edits. `npm test`, which CI runs, runs everything.
 */
export const FAST = process.env.ORDERLINE_TEST_FAST === "1";

/** `files` (globs relative to the workspace) when the run is the fast one, else none. */
export const slowFiles = (files) => (FAST ? files : []);
