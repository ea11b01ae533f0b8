/** A workflow's six columns are a limit its error names, not a bare "at most 5". */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { STARTER as starter } from "../src/types/workflow/starter.js";
import { runCli } from "./support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "diagrams-columns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a workflow column beyond the sixth", () => {
  it("is refused with the six-column limit in the message", async () => {
    const d = structuredClone(starter);
    (d.nodes[0] as { col: number }).col = 6;
    writeFileSync(join(dir, "wide.json"), JSON.stringify(d, null, 2));
    const r = await runCli(["validate", "wide.json"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /\/nodes\/0\/col {2}must be at most 5, found 6: a workflow has at most 6 columns, numbered 0 to 5 {2}\[schema\/maximum\]/,
    );
  });

  it("and a phase's column range says the same", async () => {
    const d = structuredClone(starter);
    (d.phases?.[0] as { toCol: number }).toCol = 9;
    writeFileSync(join(dir, "phase.json"), JSON.stringify(d, null, 2));
    const r = await runCli(["validate", "phase.json"], dir);
    expect(r.stdout).toContain("found 9: a workflow has at most 6 columns");
  });
});
