import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const OWNED = "ORDERLINE_TEST_TMPDIR";

/**
 * Vitest global setup shared by every workspace: points TMPDIR at one folder for the run, before
 * the test workers start, so the temporary stores, renders and key files that tests (and the
 * processes they spawn) create go there, and removes it when the run ends. Without it every run
 * left thousands of folders in the system's temporary directory. The workspaces of one run share
 * the folder rather than nesting theirs: Chromium refuses a profile whose socket path is longer
 * than a Unix socket address (108 bytes).
 */
export default function setup() {
  if (process.env[OWNED] !== undefined) return;
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "orderline-tests-"));
  process.env.TMPDIR = dir;
  process.env[OWNED] = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[OWNED];
    rmSync(dir, { recursive: true, force: true });
  };
}
