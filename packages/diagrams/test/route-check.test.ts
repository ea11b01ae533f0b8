import { describe, expect, it } from "vitest";
import type { Box } from "../src/core/geometry.js";
import { VISUAL_PRESETS, type WorkflowDiagram } from "../src/types/workflow/model.js";
import { renderSvg } from "../src/types/workflow/render.js";
import { renderCases } from "./support/cases.js";
import { denseWorkflow, variedWorkflow } from "./support/dense.js";
import { routingDefects } from "./support/route-check.js";
import { readSvgScene } from "./support/svg-scene.js";
import { validateWorkflow } from "./support/workflow.js";

const defectsOf = (diagram: WorkflowDiagram, preset?: (typeof VISUAL_PRESETS)[number]) =>
  routingDefects(readSvgScene(renderSvg(diagram, preset ? { preset } : {})));

const valid = (diagram: WorkflowDiagram): WorkflowDiagram => {
  const checked = validateWorkflow(JSON.stringify(diagram));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return diagram;
};

const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

const two = (extra: Partial<WorkflowDiagram>): WorkflowDiagram => ({
  schema_version: 1,
  diagram_type: "workflow",
  meta: { title: "checker" },
  lanes: [
    { id: "top", label: "Top" },
    { id: "bottom", label: "Bottom" },
  ],
  nodes: [
    { id: "a", lane: "top", col: 0, type: "service", label: "A" },
    { id: "b", lane: "top", col: 1, type: "service", label: "B" },
    { id: "c", lane: "top", col: 2, type: "service", label: "C" },
    { id: "d", lane: "bottom", col: 1, type: "service", label: "D" },
  ],
  edges: [],
  ...extra,
});

describe("the routing checker finds each kind of defect in a real render", () => {
  it("a label placed away from its edge, or onto another edge", () => {
    const far = two({
      edges: [
        { id: "ab", from: "a", to: "b", label: "far away", labelAt: { x: 500, y: 330 } },
        { id: "bc", from: "b", to: "c" },
      ],
    });
    expect(defectsOf(far)).toContainEqual(expect.stringMatching(/^label-detached ab: /));
    const onOther = two({
      edges: [
        { id: "ab", from: "a", to: "b", label: "mine", labelDy: -60 },
        { id: "ad", from: "a", to: "d", route: "drop" },
      ],
    });
    expect(defectsOf(onOther).join("\n")).toMatch(/label-detached ab/);
  });

  it("an edge through a node, and two edges on one track", () => {
    const through = two({ edges: [{ id: "ac", from: "a", to: "c" }] });
    const b = readSvgScene(renderSvg(through)).nodes.find((n) => n.id === "b")?.box as Box;
    through.edges = [
      { id: "ac", from: "a", to: "c", via: [{ x: b.x + b.width / 2, y: b.y + b.height / 2 }] },
    ];
    expect(defectsOf(through)).toContain("through-node ac: b");
    // The renderer keeps parallel runs apart, so the second edge is given the first's line
    // in the SVG itself.
    const svg = renderSvg(
      two({
        edges: [
          { id: "ad", from: "a", to: "d" },
          { id: "ad2", from: "a", to: "d" },
        ],
      }),
    );
    const line = (id: string) =>
      new RegExp(`(data-id="${id}"[^>]*><path class="edge-line" d=")([^"]*)`).exec(svg);
    const shared = svg.replace(line("ad2")?.[0] ?? "", `${line("ad2")?.[1]}${line("ad")?.[2]}`);
    expect(routingDefects(readSvgScene(shared))).toContainEqual(
      expect.stringMatching(/^shared-track ad: with ad2/),
    );
  });

  it("a label over a node, over an arrowhead, or beside another edge as near as its own", () => {
    const d = two({ edges: [{ id: "ab", from: "a", to: "b" }] });
    const scene = readSvgScene(renderSvg(d));
    const b = scene.nodes.find((n) => n.id === "b")?.box as Box;
    const tip = scene.edges[0]?.points.at(-1) as { x: number; y: number };
    d.edges = [
      { id: "ab", from: "a", to: "b" },
      { id: "bc", from: "b", to: "c", label: "on b", labelAt: { x: b.x + 30, y: b.y + 20 } },
      { id: "bd", from: "b", to: "d", label: "at the tip", labelAt: { x: tip.x - 4, y: tip.y } },
    ];
    const found = defectsOf(d);
    expect(found).toContain("text-overlap bc: node b");
    expect(found).toContain("label-over-arrow bd: ab's");
    expect(found).toContainEqual(expect.stringMatching(/^label-ambiguous bd: ab as near/));
  });

  it("an edge through a lane beyond those of its ends", () => {
    const three = two({ edges: [{ id: "ab", from: "a", to: "b" }] });
    three.lanes.push({ id: "extra", label: "Extra" });
    three.nodes.push({ id: "x", lane: "extra", col: 0, type: "service", label: "X" });
    const extra = readSvgScene(renderSvg(three)).outlines.find((o) => o.id === "extra")?.box as Box;
    const y = extra.y + extra.height / 2;
    three.edges = [{ id: "ab", from: "a", to: "b", via: [{ x: 400, y }] }];
    expect(defectsOf(three)).toContain("lane-detour ab: through extra");
    expect(defectsOf(two({ edges: [{ id: "ab", from: "a", to: "b" }] }))).toEqual([]);
  });

  it("a label over a lane's header cell", () => {
    const d = two({ edges: [{ id: "ab", from: "a", to: "b" }] });
    const header = readSvgScene(renderSvg(d)).captions.find((c) => c.id === "top")?.box as Box;
    const center = { x: header.x + header.width / 2, y: header.y + header.height / 2 };
    d.edges = [{ id: "ab", from: "a", to: "b", label: "on the header", labelAt: center }];
    expect(defectsOf(d)).toContain("text-overlap ab: caption top");
  });

  it("an edge along a phase outline", () => {
    const d = two({
      phases: [{ id: "p", label: "Phase", fromCol: 0, toCol: 0 }],
      edges: [{ id: "ad", from: "a", to: "d" }],
    });
    const svg = renderSvg(d);
    const p = readSvgScene(svg).outlines.find((o) => o.id === "p")?.box as Box;
    // The renderer keeps lines off outlines, so the line is moved onto one in the SVG itself.
    const x = p.x + p.width - 3;
    const along = svg.replace(
      /(data-id="ad"[^>]*><path class="edge-line" d=")[^"]*/,
      `$1M${x} ${p.y + 40}L${x} ${p.y + 140}`,
    );
    expect(routingDefects(readSvgScene(along))).toContain("on-outline ad: phase p");
  });
});

describe("edges keep off outlines", () => {
  it("a lone edge in the gutter where two phases meet takes a track clear of both borders", () => {
    const d = two({
      phases: [
        { id: "p0", label: "First", fromCol: 0, toCol: 0 },
        { id: "p1", label: "Second", fromCol: 1, toCol: 2 },
      ],
      // From the top lane's first column down into the bottom lane's second: its vertical run
      // lies in the gutter between the phases.
      edges: [{ id: "ad", from: "a", to: "d" }],
    });
    const scene = readSvgScene(renderSvg(d));
    const [p0, p1] = ["p0", "p1"].map((id) => scene.outlines.find((o) => o.id === id)?.box as Box);
    const runs = (scene.edges[0]?.points ?? [])
      .slice(1)
      .map((b, i) => [scene.edges[0]?.points[i] as { x: number; y: number }, b] as const)
      .filter(([a, b]) => a.x === b.x && Math.abs(a.y - b.y) > 8);
    const between = runs.filter(
      ([a]) => a.x > (p0 as Box).x + (p0 as Box).width - 10 && a.x < (p1 as Box).x + 10,
    );
    expect(between.length).toBeGreaterThan(0);
    for (const [a] of between) {
      expect(Math.abs(a.x - ((p0 as Box).x + (p0 as Box).width))).toBeGreaterThanOrEqual(4);
      expect(Math.abs(a.x - (p1 as Box).x)).toBeGreaterThanOrEqual(4);
    }
    expect(routingDefects(scene)).toEqual([]);
  });
});

describe("routing and labelling on every example, in every preset", () => {
  for (const c of renderCases()) {
    it(c.name, () => {
      for (const preset of VISUAL_PRESETS) {
        expect(defectsOf(c.diagram, preset), preset).toEqual([]);
      }
    });
  }
});

/**
 * Every defect in the drawings of `generate(seed)` for the seeds `first`..`last`, by seed: the
 * routing checker's, and any label that lost or changed a word (a label wrapped narrower to
 * find room keeps every word, in order).
 */
function defectsBySeed(
  generate: (seed: number) => WorkflowDiagram,
  first: number,
  last: number,
): Record<number, string[]> {
  const found: Record<number, string[]> = {};
  for (let seed = first; seed <= last; seed++) {
    const diagram = valid(generate(seed));
    const scene = readSvgScene(renderSvg(diagram));
    const defects = routingDefects(scene);
    for (const label of scene.labels) {
      const edge = diagram.edges.find((e) => e.id === label.edge);
      if (label.text !== edge?.label) defects.push(`text ${label.edge}: "${label.text}"`);
    }
    if (defects.length > 0) found[seed] = defects;
  }
  return found;
}

/** Seeds in batches of this many per test: each drawing takes a few milliseconds. */
const BATCH = 50;

function checkSeeds(generate: (seed: number) => WorkflowDiagram, seeds: number): void {
  for (let first = 1; first <= seeds; first += BATCH) {
    const last = Math.min(seeds, first + BATCH - 1);
    it(`seeds ${first}–${last}: no defect in any`, () => {
      expect(defectsBySeed(generate, first, last)).toEqual({});
    });
  }
}

describe("routing and labelling on dense generated workflows (6 lanes × 6 columns, 45 edges)", () => {
  checkSeeds(denseWorkflow, 200);
});

describe("the varied dense generator gives what it promises", () => {
  const words = (label: string | undefined) => (label ? label.split(" ").length : 0);
  it("valid workflows of 7 lanes, 40 nodes and 60 edges, the same for the same seed", () => {
    for (const seed of SEEDS) {
      const d = valid(variedWorkflow(seed));
      expect([d.lanes.length, d.nodes.length, d.edges.length]).toEqual([7, 40, 60]);
      expect(Math.max(...d.edges.map((e) => words(e.label)))).toBeLessThanOrEqual(6);
      expect(new Set(d.groups?.map((g) => g.lane)).size).toBe(2);
    }
    expect(variedWorkflow(7)).toEqual(variedWorkflow(7));
    expect(variedWorkflow(7)).not.toEqual(variedWorkflow(8));
  });

  it("across the seeds: long labels, route hints, edges within one column and within one lane", () => {
    const all = SEEDS.map(variedWorkflow);
    const edges = all.flatMap((d) => {
      const at = new Map(d.nodes.map((n) => [n.id, n]));
      return d.edges.map((e) => ({ e, from: at.get(e.from), to: at.get(e.to) }));
    });
    expect(edges.some(({ e }) => words(e.label) === 6)).toBe(true);
    const routes = new Set(edges.flatMap(({ e }) => (e.route ? [e.route] : [])));
    expect([...routes].sort()).toEqual([
      "auto",
      "bottom-channel",
      "drop",
      "outside-right",
      "return-left",
      "straight",
      "up-channel",
    ]);
    expect(edges.some(({ e }) => e.labelSegment !== undefined)).toBe(true);
    expect(edges.some(({ from, to }) => from?.col === to?.col)).toBe(true);
    expect(edges.some(({ from, to }) => from?.lane === to?.lane && from?.col !== to?.col)).toBe(
      true,
    );
  });
});

/**
 * Of the varied workflows, denser than the issue's, how many may still hold one label as near
 * another edge as its own: three edges between two nodes of one column, 50 units apart, leave
 * a long label no room on or beside its line (seed 66 of 1–100). Every other rule holds on all.
 */
const VARIED_AMBIGUOUS_AT_MOST = 2;

describe("routing and labelling on varied dense workflows (7 lanes, 40 nodes, 60 edges, route hints)", () => {
  it(`seeds 1–${SEEDS.length}: no defect but, in at most ${VARIED_AMBIGUOUS_AT_MOST}, one ambiguous label`, () => {
    const found = defectsBySeed(variedWorkflow, 1, SEEDS.length);
    const isAmbiguous = (d: string) => d.startsWith("label-ambiguous");
    const others: Record<string, string[]> = {};
    const ambiguous: Record<string, string[]> = {};
    for (const [seed, list] of Object.entries(found)) {
      if (list.some((d) => !isAmbiguous(d))) others[seed] = list.filter((d) => !isAmbiguous(d));
      if (list.some(isAmbiguous)) ambiguous[seed] = list.filter(isAmbiguous);
    }
    expect(others).toEqual({});
    expect(Object.keys(ambiguous).length, JSON.stringify(ambiguous)).toBeLessThanOrEqual(
      VARIED_AMBIGUOUS_AT_MOST,
    );
    for (const list of Object.values(ambiguous)) expect(list).toHaveLength(1);
  });
});
