import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateLifecycle } from "../bench/lifecycle-workload.mjs";
import { type } from "../src/types/lifecycle/index.js";
import type { LifecycleDiagram } from "../src/types/lifecycle/model.js";
import { starter } from "../src/types/lifecycle/starter.js";
import { validateAs } from "../src/validate/as-type.js";
import {
  type BoxDiagram,
  boxDiagramProblems,
  readBoxDiagram,
  segmentBoxDistance,
} from "./support/box-diagram-check.js";
import { EXAMPLES_DIR, TESTDATA_DIR } from "./support/cases.js";

// The shared checker of box-and-edge drawings, tried on the compound box diagrams that exist
// before architecture and data-flow: lifecycle. Nothing here is timed.
const SLOW = 120_000;

function load(name: string): LifecycleDiagram {
  const file = join(EXAMPLES_DIR, `${name}.json`);
  const result = validateAs<LifecycleDiagram>(type, readFileSync(file, "utf8"), { file });
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems)}`);
  return result.diagram;
}

async function drawn(d: LifecycleDiagram): Promise<BoxDiagram> {
  return readBoxDiagram(type.render(d, await type.layout(d)));
}

const clone = (d: BoxDiagram): BoxDiagram => ({
  elements: d.elements.map((e) => ({ ...e, box: { ...e.box } })),
  edges: d.edges.map((e) => ({ ...e, segments: e.segments.map(([a, b]) => [{ ...a }, { ...b }]) })),
  labels: new Map([...d.labels].map(([k, b]) => [k, { ...b }])),
  texts: d.texts.map((t) => ({ ...t, box: { ...t.box } })),
});

describe("box-diagram checker on lifecycle drawings", () => {
  const cases: [string, () => LifecycleDiagram][] = [
    ...["sales-order-lifecycle", "access-token-lifecycle", "change-language-lifecycle"].map(
      (n): [string, () => LifecycleDiagram] => [n, () => load(n)],
    ),
    ["starter (a composite state)", () => starter],
    ["generated 40 states (three composites)", () => generateLifecycle({ states: 40 })],
  ];
  for (const [name, make] of cases) {
    it(
      `${name}: reads every state, transition and label, and finds nothing wrong`,
      async () => {
        const d = make();
        const read = await drawn(d);
        const count = (list: LifecycleDiagram["states"]): number =>
          list.reduce((n, s) => n + 1 + count(s.states ?? []), 0);
        expect(read.elements.filter((e) => e.kind !== "legend")).toHaveLength(count(d.states));
        expect(read.elements.filter((e) => e.kind === "boundary")).toHaveLength(
          d.states.filter((s) => s.states).length,
        );
        expect(read.edges).toHaveLength(d.transitions.length);
        expect(read.labels.size).toBe(
          d.transitions.filter((t) => t.event || t.guard || t.action).length,
        );
        expect(boxDiagramProblems(read)).toEqual([]);
      },
      SLOW,
    );
  }

  it("finds the real defects of a drawing where edges run into nested states", () => {
    // A lifecycle drawn by the layout of November 2026 (kept as it was drawn): transitions
    // from outside into a composite's third and fourth states run straight through the
    // states before them, over their names and over the labels between them.
    const svg = readFileSync(join(TESTDATA_DIR, "box-check/lifecycle-into-nested.svg"), "utf8");
    const problems = boxDiagramProblems(readBoxDiagram(svg));
    expect(problems).toContain("edge t46 passes through element c1-1");
    expect(problems).toContain("edge t48 passes through element c3-2");
    expect(problems).toContain('text "step 1.2" (node c1-2) is crossed by edge t46');
    expect(problems).toContain("label of t3 is as near to edge t46 as to its own");
    expect(problems).toHaveLength(27);
  });

  it(
    "catches a state moved out of its composite and over another state",
    async () => {
      const read = clone(await drawn(starter));
      const inner = read.elements.find((e) => e.parent !== undefined && e.kind === "element");
      if (!inner) throw new Error("no nested state");
      const other = read.elements.find(
        (e) => e.kind === "element" && e.parent === undefined && e.id !== inner.id,
      );
      if (!other) throw new Error("no top-level state");
      inner.box = { ...other.box };
      const problems = boxDiagramProblems(read);
      expect(problems).toContain(`${inner.id} is not inside ${inner.parent}`);
      expect(problems.some((p) => p.includes(`element ${inner.id}`) && p.includes("overlap"))).toBe(
        true,
      );
    },
    SLOW,
  );

  it(
    "catches an edge through a state and through a composite holding neither end",
    async () => {
      const read = clone(await drawn(starter));
      const composite = read.elements.find((e) => e.kind === "boundary");
      const inner = read.elements.find((e) => e.parent === composite?.id && e.kind === "element");
      const edge = read.edges.find(
        (e) => ![e.from, e.to].some((id) => id === composite?.id || id === inner?.id),
      );
      const outside = read.edges.find(
        (e) =>
          ![e.from, e.to].some(
            (id) => id === composite?.id || read.elements.find((x) => x.id === id)?.parent,
          ),
      );
      if (!composite || !inner || !edge || !outside) throw new Error("starter lacks a case");
      const c = { x: inner.box.x + inner.box.width / 2, y: inner.box.y + inner.box.height / 2 };
      outside.segments.push([
        { x: c.x - 1000, y: c.y },
        { x: c.x + 1000, y: c.y },
      ]);
      const problems = boxDiagramProblems(read);
      expect(problems).toContain(`edge ${outside.id} passes through element ${inner.id}`);
      expect(problems).toContain(
        `edge ${outside.id} cuts through boundary ${composite.id}, which holds neither end`,
      );
    },
    SLOW,
  );

  it(
    "with boundaries as groupings, lets an edge cross one straight but not weave through it nor run along its border",
    async () => {
      const read = clone(await drawn(starter));
      const composite = read.elements.find((e) => e.kind === "boundary");
      const outside = read.edges.find(
        (e) =>
          ![e.from, e.to].some(
            (id) => id === composite?.id || read.elements.find((x) => x.id === id)?.parent,
          ),
      );
      if (!composite || !outside) throw new Error("starter lacks a case");
      const b = composite.box;
      // Far below every state: straight through the composite's bottom strip, once in, once out.
      const y = b.y + b.height - 4;
      const straight = clone(read);
      (straight.edges.find((e) => e.id === outside.id) as typeof outside).segments.push([
        { x: b.x - 50, y },
        { x: b.x + b.width + 50, y },
      ]);
      const crossing = boxDiagramProblems(straight, { crossBoundaries: true });
      expect(crossing.filter((p) => p.includes(`edge ${outside.id} `))).toEqual([]);
      expect(boxDiagramProblems(straight)).toContain(
        `edge ${outside.id} cuts through boundary ${composite.id}, which holds neither end`,
      );
      // In, out and in again; then a run along the top border.
      outside.segments.push(
        [
          { x: b.x - 50, y },
          { x: b.x + 20, y },
        ],
        [
          { x: b.x + 20, y },
          { x: b.x + 20, y: b.y + b.height + 30 },
        ],
        [
          { x: b.x + 20, y: b.y + b.height + 30 },
          { x: b.x + 40, y: b.y + b.height + 30 },
        ],
        [
          { x: b.x + 40, y: b.y + b.height + 30 },
          { x: b.x + 40, y },
        ],
        [
          { x: b.x + 10, y: b.y - 2 },
          { x: b.x + 60, y: b.y - 2 },
        ],
      );
      const problems = boxDiagramProblems(read, { crossBoundaries: true });
      expect(problems).toContain(
        `edge ${outside.id} crosses the border of boundary ${composite.id} 3 times`,
      );
      expect(problems).toContain(
        `edge ${outside.id} runs along the border of boundary ${composite.id}`,
      );
    },
    SLOW,
  );

  it(
    "catches a label off its edge, a label nearer another edge, and texts over texts",
    async () => {
      const read = clone(await drawn(load("sales-order-lifecycle")));
      const [[a, boxA], [b, boxB]] = [...read.labels] as [
        [string, BoxDiagram["elements"][0]["box"]],
        [string, BoxDiagram["elements"][0]["box"]],
      ];
      read.labels.set(a, { ...boxA, x: boxA.x + 5000 });
      // Label b keeps touching its edge, but edge a now runs through it too.
      const edgeA = read.edges.find((e) => e.id === a);
      edgeA?.segments.push([
        { x: boxB.x - 10, y: boxB.y + boxB.height / 2 },
        { x: boxB.x + boxB.width + 10, y: boxB.y + boxB.height / 2 },
      ]);
      const title = read.texts.find((t) => t.owner === "title");
      const stateText = read.texts.find((t) => t.ownerKind === "node");
      if (!title || !stateText) throw new Error("no texts");
      title.box = { ...stateText.box };
      const problems = boxDiagramProblems(read);
      expect(problems).toContain(`label of ${a} does not touch its edge`);
      expect(problems).toContain(`label of ${b} is as near to edge ${a} as to its own`);
      expect(problems).toContain(
        `text "${title.text}" (title) overlaps text "${stateText.text}" (${stateText.owner})`,
      );
    },
    SLOW,
  );

  it("with ports, finds an edge leaving an element where another arrives", () => {
    // The data-flow starter as the graph layout of November 2026 drew it: "Service status"
    // leaves the status page at the point where "Sign-in counts" arrives.
    const svg = readFileSync(join(TESTDATA_DIR, "box-check/data-flow-port-collision.svg"), "utf8");
    const read = readBoxDiagram(svg);
    expect(boxDiagramProblems(read)).toEqual([]);
    expect(boxDiagramProblems(read, { ports: true })).toEqual([
      "edge f5 leaves element status where edge f4 arrives",
    ]);
  });

  it("measures the distance between a segment and a box", () => {
    const box = { x: 0, y: 0, width: 10, height: 10 };
    expect(segmentBoxDistance({ x: -5, y: 5 }, { x: 15, y: 5 }, box)).toBe(0);
    expect(segmentBoxDistance({ x: 13, y: -20 }, { x: 13, y: 20 }, box)).toBe(3);
    expect(segmentBoxDistance({ x: 14, y: 14 }, { x: 20, y: 20 }, box)).toBeCloseTo(
      Math.hypot(4, 4),
    );
  });
});
