import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS } from "../bench/graph-corpus.mjs";
import { edgesOnCycles } from "../src/core/graph-layout/cycles.js";
import type { GraphNode } from "../src/core/graph-layout.js";
import { loadType } from "../src/types/index.js";
import { validateSource } from "../src/validate/index.js";
import { EXAMPLES_DIR } from "./support/cases.js";

// "Backward edges only where cycles force them": a line drawn against the drawing's main
// direction must close a cycle of the graph the writer described (both ends in one strongly
// connected component), so an acyclic description is drawn with every line forward. Checked on
// every example and on the seeded corpus of each graph type. Nothing here is timed.
const SLOW = 300_000;
const PER_TYPE = 200;
const BATCH = 50;
const GRAPH_TYPES = ["lifecycle", "architecture", "data-flow"] as const;

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
  const checked = await validateSource(source);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  const type = checked.diagram.diagram_type as (typeof GRAPH_TYPES)[number];
  const laid = (await (await loadType(type)).layout(checked.diagram)) as Record<string, unknown>;
  const g = drawn(type, laid);
  const onCycles = edgesOnCycles(nested(g), g.edges);
  return g.edges
    .filter((e) => e.against && !onCycles.has(e.id))
    .map((e) => `${e.id} ${e.from}→${e.to}`);
}

async function corpusBackward(
  name: (typeof GRAPH_TYPES)[number],
  from: number,
  to: number,
): Promise<string[]> {
  const found: string[] = [];
  for (let seed = from; seed <= to; seed++) {
    const source = JSON.stringify(CORPUS[name](seed));
    for (const e of await needlessBackward(source)) found.push(`${seed} ${e}`);
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
