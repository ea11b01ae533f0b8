import { describe, expect, it } from "vitest";
import type { Box } from "../src/core/geometry.js";
import { VISUAL_PRESETS, type WorkflowDiagram } from "../src/types/workflow/model.js";
import { renderSvg } from "../src/types/workflow/render.js";
import { renderCases } from "./support/cases.js";
import { denseWorkflow } from "./support/dense.js";
import { routingDefects } from "./support/route-check.js";
import { readSvgScene } from "./support/svg-scene.js";
import { validateWorkflow } from "./support/workflow.js";

const defectsOf = (diagram: WorkflowDiagram, preset?: (typeof VISUAL_PRESETS)[number]) =>
  routingDefects(readSvgScene(renderSvg(diagram, preset ? { preset } : {})));

const dense = (seed: number): WorkflowDiagram => {
  const diagram = denseWorkflow(seed);
  const checked = validateWorkflow(JSON.stringify(diagram));
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return diagram;
};

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

  it("an edge along a phase outline", () => {
    const d = two({
      phases: [{ id: "p", label: "Phase", fromCol: 0, toCol: 0 }],
      edges: [{ id: "ad", from: "a", to: "d" }],
    });
    const p = readSvgScene(renderSvg(d)).outlines.find((o) => o.id === "p")?.box as Box;
    const x = p.x + p.width;
    d.edges = [{ id: "ad", from: "a", to: "d", channelX: x }];
    expect(defectsOf(d)).toContain("on-outline ad: phase p");
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

/** Seeded dense workflows the checker runs on, in batches: each takes a few milliseconds. */
const DENSE_BATCHES = 4;
const DENSE_BATCH = 50;

describe("routing and labelling on dense generated workflows (6 lanes × 6 columns, 45 edges)", () => {
  for (let batch = 0; batch < DENSE_BATCHES; batch++) {
    const first = batch * DENSE_BATCH + 1;
    const last = first + DENSE_BATCH - 1;
    it(`seeds ${first}–${last}: no defect in any`, () => {
      const found: Record<number, string[]> = {};
      for (let seed = first; seed <= last; seed++) {
        const diagram = dense(seed);
        const scene = readSvgScene(renderSvg(diagram));
        const defects = routingDefects(scene);
        // A label wrapped narrower to find room keeps every word, in order.
        for (const label of scene.labels) {
          const edge = diagram.edges.find((e) => e.id === label.edge);
          if (label.text !== edge?.label) defects.push(`text ${label.edge}: "${label.text}"`);
        }
        if (defects.length > 0) found[seed] = defects;
      }
      expect(found).toEqual({});
    });
  }
});
