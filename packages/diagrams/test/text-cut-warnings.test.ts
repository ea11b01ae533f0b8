/**
 * Every type reports each text it cuts short with "…" (docs/diagrams/cli.md: a warning for
 * every cut), so `validate --strict` refuses a description whose drawing loses words.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Description } from "../src/core/diagram-type.js";
import { exportDiagram } from "../src/export/index.js";
import { loadType, type TypeName } from "../src/types/index.js";
import { runCli } from "./support/cli.js";

/** A starter being edited: its fields are reached by path, as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: test edits of known starters.
type Editable = any;

const dir = mkdtempSync(join(tmpdir(), "diagrams-text-cut-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LONG =
  "a text far too long for the few lines its box allows, so that the drawing has to cut it short somewhere before the end of it";

/** The type's starter with `change` applied: a valid description with one text too long. */
async function withLong(type: TypeName, change: (d: Editable) => void): Promise<Description> {
  const d = structuredClone((await loadType(type)).starter);
  change(d);
  return d;
}

const cases: [string, TypeName, (d: Editable) => void, string][] = [
  [
    "a sequence participant's label",
    "sequence",
    (d) => {
      d.participants[0].label = LONG;
    },
    "/participants/0/label",
  ],
  [
    "a lifecycle state's label",
    "lifecycle",
    (d) => {
      d.states[1].label = LONG;
    },
    "/states/1/label",
  ],
  [
    "a lifecycle transition's guard",
    "lifecycle",
    (d) => {
      d.transitions[4].guard = LONG;
    },
    "/transitions/4/guard",
  ],
  [
    "an architecture element's label",
    "architecture",
    (d) => {
      const e = d.elements?.[0] ?? d.boundaries[0].elements[0];
      e.label = `${LONG} ${LONG}`;
    },
    "label",
  ],
  [
    "a data-flow element's label",
    "data-flow",
    (d) => {
      d.elements[0].label = `${LONG} ${LONG}`;
    },
    "/elements/0/label",
  ],
  [
    "a data-flow flow's classification behind a long protocol",
    "data-flow",
    (d) => {
      d.flows[0].protocol = `${LONG} ${LONG}`;
      d.flows[0].classification = "confidential";
    },
    "/flows/0/classification",
  ],
];

describe("validate --strict refuses a drawing that cuts text short, in every type", () => {
  for (const [name, type, change, path] of cases) {
    it(name, async () => {
      const d = await withLong(type, change);
      const svg = await exportDiagram(d as never, "svg");
      expect(svg, "the drawing does cut the text").toContain("…");
      const file = `${type}-${path.replace(/\W+/g, "-")}.json`;
      writeFileSync(join(dir, file), JSON.stringify(d, null, 2));
      const plain = await runCli(["validate", file], dir);
      expect(plain.code, plain.stdout + plain.stderr).toBe(0);
      expect(plain.stdout).toMatch(/valid \(\d+ warnings?\)/);
      const strict = await runCli(["validate", "--strict", file], dir);
      expect(strict.code).toBe(1);
      const cut = strict.stdout
        .split("\n")
        .filter((l) => l.includes("[render/text-cut]"))
        .map((l) => l.split(/\s{2}/)[1] as string);
      expect(
        cut.some((p) => p.endsWith(path)),
        strict.stdout,
      ).toBe(true);
    });
  }
});
