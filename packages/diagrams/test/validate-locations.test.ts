import { describe, expect, it } from "vitest";
import { formatProblems } from "../src/validate/as-type.js";
import { validateWorkflow as validateSource } from "./support/workflow.js";
import { baseDiagram } from "./validate-base.js";
import { set } from "./validate-pointer.js";

/** Line and column (1-based) of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string, nth = 0): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = text.indexOf(needle, index + 1);
  if (index < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, index).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

describe("problems carry the line and column of the offending text", () => {
  const d = baseDiagram();
  set(d, "/nodes/1/lable", "B2");
  set(d, "/nodes/2/type", "databse");
  set(d, "/edges/2/to", "cc");
  const text = JSON.stringify(d, null, 2);
  const result = validateSource(text, { file: "flow.json" });

  it("reports all problems at once, sorted by position", () => {
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.rule, p.path])).toEqual([
      ["schema/additionalProperties", "/nodes/1/lable"],
      ["schema/enum", "/nodes/2/type"],
      ["ref/node", "/edges/2/to"],
    ]);
  });

  it("points at the key of an unknown property", () => {
    expect(result.problems[0]).toMatchObject({
      file: "flow.json",
      ...positionOf(text, '"lable"'),
      suggestion: 'did you mean "label"?',
    });
  });

  it("points at the value of a bad enum and suggests the nearest allowed value", () => {
    expect(result.problems[1]).toMatchObject({
      ...positionOf(text, '"databse"'),
      suggestion: 'did you mean "database"?',
    });
    expect(result.problems[1]?.message).toContain("frontend, backend, database");
  });

  it("suggests the nearest declared id for an unresolved reference", () => {
    expect(result.problems[2]).toMatchObject({
      ...positionOf(text, '"cc"'),
      suggestion: 'did you mean "c"?',
      message: 'to "cc" does not name any node',
    });
  });

  it("formats text as file:line:col  path  message (suggestion)  [rule]", () => {
    const { line, column } = positionOf(text, '"lable"');
    expect(formatProblems(result.problems, "text").split("\n")[0]).toBe(
      `flow.json:${line}:${column}  /nodes/1/lable  unknown property "lable"; allowed here: id, lane, col, type, label, sublabel, tag, brand, width, height, yOffset (did you mean "label"?)  [schema/additionalProperties]`,
    );
  });

  it("formats JSON as an array of the problems", () => {
    expect(JSON.parse(formatProblems(result.problems, "json"))).toEqual(result.problems);
  });
});

describe("locations in hand-written text", () => {
  it("uses the position of the value for wrong values, counting columns from 1", () => {
    const text = `{
  "schema_version": 2,
  "diagram_type": "workflow",
  "meta": { "title": "T", "viewBox": [640, 300] },
  "lanes": [{ "id": "l", "label": "L" }],
  "nodes": [{ "id": "n", "lane": "l", "col": 9, "type": "user", "label": "N" }],
  "edges": []
}`;
    const { problems } = validateSource(text);
    expect(problems.map(({ line, column, path }) => ({ line, column, path }))).toEqual([
      { line: 4, column: 39, path: "/meta/viewBox/0" },
      { line: 6, column: 46, path: "/nodes/0/col" },
    ]);
  });

  it("points a missing property at the object that lacks it", () => {
    const text =
      '{\n  "schema_version": 2,\n  "diagram_type": "workflow",\n  "meta": {},\n  "lanes": [{"id": "l", "label": "L"}],\n  "nodes": [{"id": "n", "lane": "l", "col": 0, "type": "user", "label": "N"}],\n  "edges": []\n}';
    const [problem] = validateSource(text).problems;
    expect(problem).toMatchObject({
      line: 4,
      column: 11,
      path: "/meta/title",
      rule: "schema/required",
    });
  });

  it("hints at a misspelled required property", () => {
    const d = baseDiagram();
    const lane = d.lanes[0] as unknown as Record<string, unknown>;
    delete lane.label;
    lane.lable = "Lane 1";
    const problems = validateSource(JSON.stringify(d)).problems;
    expect(problems.find((p) => p.rule === "schema/required")?.suggestion).toBe(
      '"lable" may be a misspelling of "label"',
    );
  });

  it("treats a swap of two letters as one edit", () => {
    const d = baseDiagram();
    set(d, "/edges/0/route", "outisde-right");
    const [problem] = validateSource(JSON.stringify(d)).problems;
    expect(problem?.suggestion).toBe('did you mean "outside-right"?');
  });

  it("gives no suggestion when nothing is close", () => {
    const d = baseDiagram();
    set(d, "/meta/colour_scheme", "dark");
    const [problem] = validateSource(JSON.stringify(d)).problems;
    expect(problem?.rule).toBe("schema/additionalProperties");
    expect(problem?.suggestion).toBeUndefined();
  });

  it("suggests a node id for a card keyed by a misspelt id", () => {
    const d = baseDiagram();
    set(d, "/cards/bb", { body: ["x"] });
    const [problem] = validateSource(JSON.stringify(d)).problems;
    expect(problem).toMatchObject({
      rule: "ref/node",
      path: "/cards/bb",
      suggestion: 'did you mean "b"?',
    });
  });

  it("tells how to fix a v1 description that uses v2 fields", () => {
    const d = baseDiagram();
    set(d, "/schema_version", 1);
    const problems = validateSource(JSON.stringify(d, null, 2)).problems;
    expect(problems.map((p) => [p.rule, p.path, p.suggestion])).toEqual([
      ["version/v2-only", "/meta/views", 'set "schema_version": 2'],
      ["version/v2-only", "/cards", 'set "schema_version": 2'],
    ]);
    expect(problems[0]?.message).toBe(
      '"views" needs schema_version 2; this description says schema_version 1',
    );
  });
});

describe("text that is not a valid description", () => {
  it("reports a JSON syntax error with its line and column", () => {
    const result = validateSource('{\n  "a": 1,\n  "b": [1, 2,]\n}', { file: "broken.json" });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          file: "broken.json",
          line: 3,
          column: 14,
          path: "",
          rule: "json/syntax",
          message: expect.stringMatching(/^not valid JSON: /),
        },
      ],
    });
  });

  it.each([
    ["empty text", ""],
    ["a truncated file", '{"schema_version": 2, "meta": {'],
    ["comments", '{"schema_version": 2 // two\n}'],
    ["single quotes", "{'a': 1}"],
    ["a trailing word", "{} x"],
  ])("refuses %s as a syntax error without throwing", (_name, text) => {
    const result = validateSource(text);
    expect(result.ok).toBe(false);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.rule).toBe("json/syntax");
    expect(result.problems[0]?.line).toBeGreaterThanOrEqual(1);
  });

  it("reports a duplicate key, which JSON.parse would silently accept", () => {
    const text = JSON.stringify(baseDiagram(), null, 2).replace(
      '"title": "Base",',
      '"title": "Base",\n    "title": "Again",',
    );
    const problems = validateSource(text).problems;
    expect(problems.map((p) => [p.rule, p.path])).toEqual([["json/duplicate-key", "/meta/title"]]);
    expect(problems[0]).toMatchObject(positionOf(text, '"title"', 1));
  });

  it("accepts a leading byte order mark", () => {
    expect(validateSource(`\ufeff${JSON.stringify(baseDiagram())}`).ok).toBe(true);
  });

  it.each([
    ["an array", "[]"],
    ["a string", '"workflow"'],
    ["null", "null"],
  ])("refuses %s at the top level with one type problem", (_name, text) => {
    expect(validateSource(text).problems.map((p) => [p.rule, p.path, p.line, p.column])).toEqual([
      ["schema/type", "", 1, 1],
    ]);
  });

  it("keeps a __proto__ key as plain data and refuses it as unknown", () => {
    const text = JSON.stringify(baseDiagram()).replace('"meta":{', '"meta":{"__proto__":{"x":1},');
    const problems = validateSource(text).problems;
    expect(problems.map((p) => [p.rule, p.path])).toEqual([
      ["schema/additionalProperties", "/meta/__proto__"],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("returns the diagram itself when valid", () => {
    const result = validateSource(JSON.stringify(baseDiagram()));
    expect(result).toEqual({ ok: true, diagram: baseDiagram(), problems: [] });
  });
});

describe("one mistake, one problem", () => {
  it("an edge to a misspelt node is not also reported as broken roots, terminals and mainPath", () => {
    const d = baseDiagram();
    set(d, "/edges/1/to", "cc");
    expect(validateSource(JSON.stringify(d)).problems.map((p) => [p.rule, p.path])).toEqual([
      ["ref/node", "/edges/1/to"],
    ]);
  });
});

describe("messages stay readable", () => {
  it("quotes a long wrong value only in part", () => {
    const d = baseDiagram();
    set(d, "/meta/animation", "x".repeat(500));
    const [problem] = validateSource(JSON.stringify(d)).problems;
    expect(problem?.message).toBe(`"${"x".repeat(57)}…" is not one of: trace, none`);
  });
});
