import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { longFunctions } from "../../../scripts/long-functions.mjs";

// A component a reader cannot hold in mind is split into named parts (see the vocabulary
// editor). `node scripts/long-functions.mjs apps/console/src` lists those over 80 lines.
const LIMIT = 150;

describe("function length", () => {
  it(`no function or component in the console's source is over ${LIMIT} lines`, () => {
    const src = fileURLToPath(new URL("../src", import.meta.url));
    const found = longFunctions([src], LIMIT).map((f) => `${f.file}:${f.line} ${f.name}`);
    expect(found).toEqual([]);
  });
});
