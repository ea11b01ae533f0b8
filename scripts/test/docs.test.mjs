import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DECISIONS, withTableOfContents } from "../decisions-toc.mjs";
import { missingDocPaths } from "../doc-paths.mjs";

// Docs a maintainer can follow.
describe("the docs", () => {
  it("every repository path named in a *.md file exists", () => {
    expect(missingDocPaths()).toEqual([]);
  });

  it("decisions.md's table of contents lists every entry (node scripts/decisions-toc.mjs)", () => {
    const text = readFileSync(DECISIONS, "utf8");
    expect(withTableOfContents(text)).toBe(text);
  });
});
