import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Description } from "../src/core/diagram-type.js";
import { exportMermaid, importMermaid, importToJson } from "../src/mermaid/index.js";
import { normalise } from "../src/mermaid/normalise.js";
import { walkDiagram } from "../src/types/architecture/model.js";
import { allStates } from "../src/types/lifecycle/model.js";
import type { Step } from "../src/types/sequence/model.js";
import { isBranched, isFragment, isMessage } from "../src/types/sequence/model.js";
import { PACKAGE_DIR } from "./support/cases.js";
import { mermaidParse } from "./support/mermaid-parse.js";

const CORPUS = join(PACKAGE_DIR, "test/testdata/mermaid");

/** What a fixture's sidecar states about its source, counted by hand when it was written. */
interface Expected {
  type?: "workflow" | "data-flow" | "architecture";
  participants?: number;
  messages?: number;
  states?: number;
  transitions?: number;
  nodes?: number;
  edges?: number;
  boundaries?: number;
  lanes?: number;
  /** The lines the import must report something on (and no others). */
  reported_lines: number[];
}

const messages = (steps: Step[]): number =>
  steps.reduce(
    (n, s) =>
      n +
      (isMessage(s) ? 1 : 0) +
      (isFragment(s)
        ? messages(s.steps) + (s.options ?? []).reduce((m, o) => m + messages(o.steps), 0)
        : 0) +
      (isBranched(s) ? s.branches.reduce((m, b) => m + messages(b.steps), 0) : 0),
    0,
  );

/** The counts the sidecar states, read from the imported description. */
function counts(d: Description): Record<string, number> {
  // biome-ignore lint/suspicious/noExplicitAny: read per type below.
  const x = d as any;
  switch (d.diagram_type) {
    case "sequence":
      return { participants: x.participants.length, messages: messages(x.steps) };
    case "lifecycle":
      return { states: allStates(x.states).length, transitions: x.transitions.length };
    case "architecture": {
      const w = walkDiagram(x);
      return {
        nodes: w.elements.length,
        edges: (x.relationships ?? []).length,
        boundaries: w.boundaries.length,
      };
    }
    case "workflow":
      return { nodes: x.nodes.length, edges: x.edges.length, lanes: x.lanes.length };
    default:
      return {
        nodes: x.elements.length,
        edges: x.flows.length,
        boundaries: (x.boundaries ?? []).length,
      };
  }
}

const files = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".mmd"))
  .sort();

describe("the Mermaid corpus", () => {
  it("holds at least 40 diagrams of the three kinds", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(files.map((f) => f.split("-")[0]));
    expect([...kinds].sort()).toEqual(["flow", "seq", "state"]);
  });

  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(join(CORPUS, file), "utf8");
      const expected = JSON.parse(
        readFileSync(join(CORPUS, file.replace(/\.mmd$/, ".expect.json")), "utf8"),
      ) as Expected;
      // The fixture is Mermaid as Mermaid itself reads it.
      await mermaidParse(text);

      const type = expected.type;
      const imported = await importToJson(text, { file, ...(type ? { type } : {}) });
      if (!imported.ok) throw new Error(`${JSON.stringify(imported.issues)}\n${imported.problems}`);
      const { reported_lines, type: _type, ...want } = expected;
      const got = counts(imported.diagram);
      expect(Object.fromEntries(Object.keys(want).map((k) => [k, got[k]]))).toEqual(want);
      // Nothing lost without a report, and a report only where something was lost.
      const lines = [...new Set(imported.issues.map((i) => i.line))].sort((a, b) => a - b);
      expect(lines, JSON.stringify(imported.issues, null, 1)).toEqual(reported_lines);

      // Exported, it is Mermaid again, and imports back to the same description.
      const out = await exportMermaid(imported.diagram);
      await mermaidParse(out);
      const back = await importMermaid(out, type ? { type } : {});
      if (!back.ok) throw new Error(JSON.stringify(back.issues));
      // What the description's own warning rules say of the content comes back every time.
      expect(
        back.issues.filter((i) => i.rule === undefined),
        out,
      ).toEqual([]);
      expect(back.diagram).toEqual(normalise(imported.diagram));
    });
  }
});
