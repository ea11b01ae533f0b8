import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateArchitecture } from "../bench/architecture-workload.mjs";
import { generateDataFlow } from "../bench/data-flow-workload.mjs";
import { generateLifecycle } from "../bench/lifecycle-workload.mjs";
import { generateSequence } from "../bench/sequence-workload.mjs";
import { generateWorkflow } from "../bench/workload.mjs";
import type { Description } from "../src/core/diagram-type.js";
import { exportMermaid, importMermaid } from "../src/mermaid/index.js";
import { normalise } from "../src/mermaid/normalise.js";
import { validateSource } from "../src/validate/index.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { mermaidParse } from "./support/mermaid-parse.js";

const examples = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith(".json"))
  .map(
    (f) => [f, JSON.parse(readFileSync(join(EXAMPLES_DIR, f), "utf8"))] as [string, Description],
  );

const generated: [string, Description][] = [
  ["sequence 8×120", generateSequence({ participants: 8, messages: 120 })],
  ["sequence 3×20", generateSequence({ participants: 3, messages: 20 })],
  ["lifecycle 40", generateLifecycle({ states: 40 })],
  ["lifecycle 16", generateLifecycle({ states: 16 })],
  ["architecture 60", generateArchitecture({ elements: 60 })],
  ["data-flow 60", generateDataFlow({ elements: 60 })],
  ["workflow 4×6", generateWorkflow({ lanes: 4, cols: 6, nodes: 20, edges: 24 })],
];

/** export → import, with the import's issues (there must be none for our own export). */
async function roundTrip(d: Description) {
  const text = await exportMermaid(d);
  const back = await importMermaid(text, {
    type: ["workflow", "data-flow", "architecture"].includes(d.diagram_type)
      ? (d.diagram_type as "workflow")
      : undefined,
  });
  if (!back.ok) throw new Error(JSON.stringify(back.issues));
  return { text, back };
}

describe("Mermaid export parses with Mermaid, and import gives the description back", () => {
  for (const [name, d] of [...examples, ...generated]) {
    it(`${name} (${d.diagram_type})`, async () => {
      const valid = await validateSource(JSON.stringify(d));
      expect(valid.problems).toEqual([]);
      const { text, back } = await roundTrip(d);
      await mermaidParse(text);
      expect(back.issues, text).toEqual([]);
      expect(back.diagram).toEqual(normalise(d));
      const again = await validateSource(JSON.stringify(back.diagram));
      expect(again.problems).toEqual([]);
    });
  }
});
