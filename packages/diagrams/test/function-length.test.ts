import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { longFunctions } from "../../../scripts/long-functions.mjs";
import { PACKAGE_DIR } from "./support/cases.js";

// A function a reader cannot hold in mind is split into named stages (see the workflow and
// sequence layouts). `node scripts/long-functions.mjs PATH` lists those over 80 lines.
const LIMIT = 150;

describe("function length", () => {
  it(`no function in the diagram tool's source is over ${LIMIT} lines`, () => {
    const found = longFunctions([join(PACKAGE_DIR, "src")], LIMIT)
      .map((f) => ({ ...f, file: relative(PACKAGE_DIR, f.file) }))
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(found).toEqual([]);
  });
});
