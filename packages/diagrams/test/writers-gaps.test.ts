import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateSource } from "../src/validate/index.js";
import { EXAMPLES_DIR, PACKAGE_DIR } from "./support/cases.js";

// The writers' gaps: each one mistake gives one problem with a hint, and
// what writers had to invent is optional.
// biome-ignore lint/suspicious/noExplicitAny: descriptions are edited as plain JSON here.
type Json = any;
const example = (name: string): Json =>
  JSON.parse(readFileSync(join(EXAMPLES_DIR, `${name}.json`), "utf8"));
const problems = async (d: Json) => {
  const r = await validateSource(JSON.stringify(d, null, 2));
  return r.ok ? [] : r.problems.map((p) => ({ rule: p.rule, path: p.path, hint: p.suggestion }));
};

describe("writers' gaps", () => {
  it("a data-flow needs no classification on its flows", async () => {
    const d = example("signed-order-data-flow");
    for (const f of d.flows) delete f.classification;
    expect(await problems(d)).toEqual([]);
  });

  it('"kind": true on a final state is one problem', async () => {
    const d = example("sales-order-lifecycle");
    const at = d.states.findIndex((s: Json) => s.kind === "final");
    d.states[at].kind = true;
    expect((await problems(d)).map((p) => [p.rule, p.path])).toEqual([
      ["schema/enum", `/states/${at}/kind`],
    ]);
  });

  it("an element in a misspelt boundary is one problem (its boundary is not also empty)", async () => {
    const d = example("signed-order-data-flow");
    const counts = new Map<string, number>();
    for (const e of d.elements) counts.set(e.boundary, (counts.get(e.boundary) ?? 0) + 1);
    const lone = d.elements.findIndex((e: Json) => e.boundary && counts.get(e.boundary) === 1);
    const at = lone >= 0 ? lone : d.elements.findIndex((e: Json) => e.boundary);
    d.elements[at].boundary = `${d.elements[at].boundary}x`;
    expect((await problems(d)).map((p) => [p.rule, p.path])).toEqual([
      ["ref/boundary", `/elements/${at}/boundary`],
    ]);
  });

  it('"true" for a boolean says: did you mean true?', async () => {
    const d = example("partner-order-sequence");
    d.autonumber = "true";
    expect(await problems(d)).toEqual([
      { rule: "schema/type", path: "/autonumber", hint: "did you mean true (without quotes)?" },
    ]);
  });

  it("format.md's schema_version row names every type", () => {
    const format = readFileSync(join(PACKAGE_DIR, "../../docs/diagrams/format.md"), "utf8");
    const row = format.split("\n").find((l) => l.startsWith("| `schema_version`")) ?? "";
    for (const type of ["workflow", "sequence", "lifecycle", "architecture", "data-flow"]) {
      expect(row).toContain(type);
    }
  });
});
