import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Vitest global setup shared by every workspace: points TMPDIR at one folder for the run, before
 * the test workers start, so the temporary stores, renders and key files that tests (and the
 * processes they spawn) create go there, and removes it when the run ends. Without it every run
 * left thousands of folders in the system's temporary directory.
 */
export default function setup() {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "orderline-tests-"));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
