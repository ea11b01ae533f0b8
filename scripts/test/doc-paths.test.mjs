import { describe, expect, it } from "vitest";
import { missingDocPaths } from "../doc-paths.mjs";

// Docs a maintainer can follow: every file or folder a Markdown document names exists.
describe("paths named in the docs", () => {
  it("every repository path in a *.md file exists", () => {
    expect(missingDocPaths()).toEqual([]);
  });
});
