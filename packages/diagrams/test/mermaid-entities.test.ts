/**
 * Text with `#`, `;` and quotes goes out as Mermaid's entity codes (`#35;`, `#59;`, `#quot;`),
 * which Mermaid parses, and comes back through our import unchanged.
 */
import { describe, expect, it } from "vitest";
import type { Description } from "../src/core/diagram-type.js";
import { exportMermaid, importMermaid } from "../src/mermaid/index.js";
import { encodeText } from "../src/mermaid/source.js";
import { loadType, type TypeName } from "../src/types/index.js";
import { mermaidParse } from "./support/mermaid-parse.js";

/** A starter being edited: its fields are reached by path, as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: test edits of known starters.
type Editable = any;

const TEXT = 'fixes issue #123; see #ops and "the #35; code"; 50% <done>';

describe("Mermaid entity codes", () => {
  it("each character Mermaid reads as syntax becomes one entity, never an entity's parts", () => {
    expect(encodeText("issue #123; see #ops")).toBe("issue #35;123#59; see #35;ops");
    expect(encodeText('say "hi"')).toBe("say #quot;hi#quot;");
  });

  const cases: [TypeName, (d: Editable) => void][] = [
    [
      "sequence",
      (d) => {
        d.participants[1].label = TEXT;
        d.steps[0].label = TEXT;
      },
    ],
    [
      "lifecycle",
      (d) => {
        d.states[1].label = TEXT;
        d.transitions[1].event = TEXT;
        d.transitions[4].guard = TEXT;
      },
    ],
    [
      "architecture",
      (d) => {
        d.elements[0].label = TEXT;
        d.relationships[0].label = TEXT;
      },
    ],
    [
      "data-flow",
      (d) => {
        d.elements[0].label = TEXT;
        d.flows[0].label = TEXT;
      },
    ],
    [
      "workflow",
      (d) => {
        d.nodes[0].label = TEXT;
        d.edges[0].label = TEXT;
      },
    ],
  ];
  for (const [type, change] of cases) {
    it(`${type}: export parses with Mermaid and imports back with the text unchanged`, async () => {
      const d = structuredClone((await loadType(type)).starter) as Description;
      change(d);
      const text = await exportMermaid(d);
      expect(text).not.toContain("#35#59;");
      await mermaidParse(text);
      const back = await importMermaid(
        text,
        ["workflow", "data-flow", "architecture"].includes(type)
          ? { type: type as "workflow" }
          : {},
      );
      if (!back.ok) throw new Error(JSON.stringify(back.issues));
      expect(back.issues, text).toEqual([]);
      const found =
        JSON.stringify(back.diagram).split(JSON.stringify(TEXT).slice(1, -1)).length - 1;
      expect(found, text).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(back.diagram)).not.toMatch(/fixes issue(?! #123)/);
    });
  }
});
