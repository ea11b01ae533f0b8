import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LaidOut } from "../src/core/diagram-type.js";
import { edgesOnCycles } from "../src/core/graph-layout/cycles.js";
import type { GraphNode } from "../src/core/graph-layout.js";
import { loadType } from "../src/types/index.js";
import { validateSource } from "../src/validate/index.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import {
  forgetCorpusLayouts,
  GRAPH_TYPES,
  type GraphType,
  layOutCorpus,
  layOutSource,
  warningsOf,
} from "./support/graph-corpus.js";

// "Backward edges only where cycles force them": a line drawn against the drawing's main
// direction must close a cycle of the graph the writer described (both ends in one strongly
// connected component), so an acyclic description is drawn with every line forward. Checked on
// every example and on the seeded corpus of each graph type. Nothing here is timed.
const SLOW = 300_000;
const PER_TYPE = 200;
const BATCH = 50;

interface Drawn {
  /** Every node (leaf or compound) with the compound holding it. */
  nodes: { id: string; parent: string | undefined }[];
  edges: { id: string; from: string; to: string; against?: true }[];
}

/** The drawn nodes as a tree (compound nodes holding their children). */
function nested(g: Drawn): GraphNode[] {
  const made = new Map<string, GraphNode>(
    g.nodes.map((n) => [n.id, { id: n.id, width: 0, height: 0, children: [] }]),
  );
  const roots: GraphNode[] = [];
  for (const n of g.nodes) {
    const node = made.get(n.id) as GraphNode;
    if (n.parent === undefined) roots.push(node);
    else made.get(n.parent)?.children?.push(node);
  }
  return roots;
}

function drawn(type: string, l: Record<string, unknown>): Drawn {
  const pick = (k: string) => (l[k] ?? []) as { id: string; parent: string | undefined }[];
  if (type === "lifecycle") {
    return { nodes: pick("states"), edges: l.transitions as Drawn["edges"] };
  }
  const edges = (type === "architecture" ? l.relationships : l.flows) as Drawn["edges"];
  return { nodes: [...pick("elements"), ...pick("boundaries")], edges };
}

/** The lines drawn backwards that close no cycle of the description, as "id from→to". */
async function needlessBackward(source: string): Promise<string[]> {
  const { type, laid } = await layOutSource(source);
  return backwardIn(type, laid);
}

function backwardIn(type: GraphType, laid: LaidOut): string[] {
  const g = drawn(type, laid as unknown as Record<string, unknown>);
  const onCycles = edgesOnCycles(nested(g), g.edges);
  return g.edges
    .filter((e) => e.against && !onCycles.has(e.id))
    .map((e) => `${e.id} ${e.from}→${e.to}`);
}

async function corpusBackward(name: GraphType, from: number, to: number): Promise<string[]> {
  const found: string[] = [];
  for (let seed = from; seed <= to; seed++) {
    for (const e of backwardIn(name, await layOutCorpus(name, seed))) found.push(`${seed} ${e}`);
  }
  return found;
}

describe("lines run against the main direction only where a cycle forces them", () => {
  const examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f, readFileSync(join(EXAMPLES_DIR, f), "utf8")] as const)
    .filter(([, s]) => GRAPH_TYPES.includes(JSON.parse(s).diagram_type));

  for (const [file, source] of examples) {
    it(`${file}: no needless backward line`, async () => {
      expect(await needlessBackward(source)).toEqual([]);
    });
  }

  for (const name of GRAPH_TYPES) {
    for (let from = 1; from <= PER_TYPE; from += BATCH) {
      const to = from + BATCH - 1;
      it(
        `${name}, generated seeds ${from}–${to}: no needless backward line`,
        async () => {
          expect(await corpusBackward(name, from, to)).toEqual([]);
        },
        SLOW,
      );
    }
  }

  it("counts a line back round a cycle as forced, and one between two branches as not", async () => {
    const lifecycle = (transitions: { from: string; to: string }[]) =>
      JSON.stringify({
        schema_version: 2,
        diagram_type: "lifecycle",
        meta: { title: "t" },
        states: [
          { id: "start", kind: "initial" },
          { id: "a", label: "A" },
          { id: "b", label: "B" },
          { id: "c", label: "C" },
        ],
        transitions,
      });
    const checked = await validateSource(
      lifecycle([
        { from: "start", to: "a" },
        { from: "a", to: "b" },
        { from: "b", to: "c" },
        { from: "c", to: "a" },
      ]),
    );
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    const laid = (await (await loadType("lifecycle")).layout(checked.diagram)) as Record<
      string,
      unknown
    >;
    const g = drawn("lifecycle", laid);
    // One line of the cycle a → b → c → a has to run back; it is in the cycle's component.
    expect(g.edges.filter((e) => e.against)).toHaveLength(1);
    const onCycles = edgesOnCycles(nested(g), g.edges);
    expect(g.edges.filter((e) => onCycles.has(e.id)).map((e) => `${e.from}→${e.to}`)).toEqual([
      "a→b",
      "b→c",
      "c→a",
    ]);
  });

  it("reads a compound node as its members: into it reaches them, out of it leaves from each", () => {
    const box = (id: string, children?: GraphNode[]): GraphNode => ({
      id,
      width: 1,
      height: 1,
      ...(children ? { children } : {}),
    });
    const nodes = [box("x"), box("c", [box("c1"), box("c2")])];
    // Into one member and out of another: no cycle, though the boundary and x join both ways.
    expect(
      edgesOnCycles(nodes, [
        { id: "in", from: "x", to: "c1" },
        { id: "out", from: "c2", to: "x" },
      ]),
    ).toEqual(new Set());
    // Out of the boundary means out of every member, c1 among them: a cycle.
    expect(
      edgesOnCycles(nodes, [
        { id: "in", from: "x", to: "c1" },
        { id: "out", from: "c", to: "x" },
      ]),
    ).toEqual(new Set(["in", "out"]));
  });
});

// The reading promises of graph-promises.test.ts on the generated corpus live here, beside the
// backward-line checks, so that each generated description is laid out once for both: the
// layouts are nearly all of what either costs (support/graph-corpus.ts).
afterAll(forgetCorpusLayouts);
describe("graph types keep their reading promises on the generated corpus", () => {
  for (const name of GRAPH_TYPES) {
    for (let from = 1; from <= PER_TYPE; from += BATCH) {
      const to = from + BATCH - 1;
      it(
        `${name}, generated seeds ${from}–${to}: no warning`,
        async () => {
          const found: string[] = [];
          for (let seed = from; seed <= to; seed++) {
            for (const w of warningsOf(await layOutCorpus(name, seed))) found.push(`${seed} ${w}`);
          }
          expect(found).toEqual([]);
        },
        SLOW,
      );
    }
  }
});
