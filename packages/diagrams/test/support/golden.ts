import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { TESTDATA_DIR } from "./cases.js";

/**
 * Compares a drawing with its golden file, test/testdata/<name>/<file>. With UPDATE_GOLDEN=1 it
 * writes the file instead: after an intended change to the drawing, refresh and look at them.
 */
export function golden(name: string, file: string, svg: string): void {
  const dir = join(TESTDATA_DIR, name);
  const expected = join(dir, file);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dir, { recursive: true });
    writeFileSync(expected, svg);
  }
  if (!existsSync(expected))
    throw new Error(`no golden file ${expected}: run with UPDATE_GOLDEN=1`);
  expect(svg).toBe(readFileSync(expected, "utf8"));
}
