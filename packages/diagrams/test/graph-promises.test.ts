import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkGraphDrawing, type GraphDrawing, HEAD_LIMIT } from "../src/core/graph-check.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { GRAPH_TYPES, layOutSource, warningsOf } from "./support/graph-corpus.js";

// The reading promises of every graph type (core/graph-check.ts: no shared tracks, no stacked
// arrowheads, no edge leaving where another arrives, aspect within 1:2.5 … 2.5:1 when the
// layout chose the direction, notes within one note-height of their state), on every example,
// read from the render warnings the layouts give the writer. The same promises on the seeded
// corpus of hundreds of generated descriptions per type are checked in graph-backward.test.ts,
// which lays out the same corpus: there each description is laid out once for both. Nothing
// here is timed.
async function warnings(source: string): Promise<string[]> {
  return warningsOf((await layOutSource(source)).laid);
}

describe("graph types keep their reading promises", () => {
  const examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f, readFileSync(join(EXAMPLES_DIR, f), "utf8")] as const)
    .filter(([, s]) => GRAPH_TYPES.includes(JSON.parse(s).diagram_type));

  it("finds the examples of every graph type", () => {
    const types = new Set(examples.map(([, s]) => JSON.parse(s).diagram_type));
    expect([...types].sort()).toEqual([...GRAPH_TYPES].sort());
  });

  for (const [file, source] of examples) {
    it(`${file}: no warning`, async () => {
      expect(await warnings(source)).toEqual([]);
    });
  }
});

describe("the graph checker finds what it promises to", () => {
  const base = (): GraphDrawing => ({
    width: 400,
    height: 300,
    edges: [
      {
        id: "a",
        points: [
          { x: 0, y: 10 },
          { x: 100, y: 10 },
        ],
      },
      {
        id: "b",
        points: [
          { x: 0, y: 50 },
          { x: 100, y: 50 },
        ],
      },
    ],
  });
  const rules = (d: GraphDrawing) => checkGraphDrawing(d).map((f) => f.rule);

  it("passes two lines apart", () => {
    expect(rules(base())).toEqual([]);
  });
  it("finds two lines 2 units apart along 60 units", () => {
    const d = base();
    d.edges[1] = {
      id: "b",
      points: [
        { x: 40, y: 12 },
        { x: 100, y: 12 },
      ],
    };
    expect(rules(d)).toContain("shared-track");
  });
  it("finds two heads at one point, and a tail on a head", () => {
    const d = base();
    d.edges[1] = {
      id: "b",
      points: [
        { x: 100, y: 60 },
        { x: 100, y: 11 },
      ],
    };
    d.edges.push({
      id: "c",
      points: [
        { x: 101, y: 10 },
        { x: 101, y: -40 },
      ],
    });
    expect(new Set(rules(d))).toEqual(new Set(["stacked-arrowheads", "port-collision"]));
  });
  it("finds two arrowheads 8 units apart: closer than an arrowhead is wide", () => {
    const head = (id: string, x: number) => ({
      id,
      points: [
        { x, y: 200 },
        { x, y: 260 },
      ],
    });
    expect(rules({ ...base(), edges: [head("a", 100), head("b", 108)] })).toEqual([
      "stacked-arrowheads",
    ]);
    expect(rules({ ...base(), edges: [head("a", 100), head("b", 100 + HEAD_LIMIT)] })).toEqual([]);
    expect(HEAD_LIMIT).toBeGreaterThanOrEqual(10.5);
  });
  it("passes lines joined into one trunk (one arrowhead), not lines merely meeting", () => {
    const into = (id: string, x: number, y: number) => ({
      id,
      points: [
        { x, y: 100 },
        { x, y },
        { x: 200, y },
        { x: 200, y: 260 },
      ],
    });
    expect(rules({ ...base(), edges: [into("a", 100, 230), into("b", 300, 240)] })).toEqual([]);
    // From two sides into one point: two arrowheads, stacked.
    const across = {
      id: "c",
      points: [
        { x: 100, y: 260 },
        { x: 200, y: 260 },
      ],
    };
    expect(rules({ ...base(), edges: [into("a", 100, 230), across] })).toEqual([
      "stacked-arrowheads",
    ]);
  });
  it("finds a drawing too wide, only when the layout chose its direction", () => {
    const d = { ...base(), width: 1000, height: 300 };
    expect(rules({ ...d, checkAspect: true })).toEqual(["aspect"]);
    expect(rules(d)).toEqual([]);
  });
  it("finds a note further from its state than its own height", () => {
    const state = { x: 0, y: 100, width: 100, height: 40 };
    const note = { x: 150, y: 100, width: 80, height: 40 };
    expect(rules({ ...base(), notes: [{ id: "n", box: note, of: state }] })).toEqual([
      "note-distance",
    ]);
    const close = { ...note, x: 116 };
    expect(rules({ ...base(), notes: [{ id: "n", box: close, of: state }] })).toEqual([]);
  });
});
