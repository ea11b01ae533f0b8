import { describe, expect, it } from "vitest";
import { layoutDiagram } from "../src/types/workflow/layout/index.js";
import type { Point, WorkflowDiagram } from "../src/types/workflow/model.js";

const base = (viewBox?: [number, number]): WorkflowDiagram => ({
  schema_version: 1,
  diagram_type: "workflow",
  meta: { title: "Coordinates", ...(viewBox ? { viewBox } : {}) },
  lanes: [
    { id: "top", label: "Top" },
    { id: "bottom", label: "Bottom" },
  ],
  nodes: [
    { id: "a", lane: "top", col: 0, type: "service", label: "A" },
    { id: "b", lane: "bottom", col: 1, type: "service", label: "B" },
    { id: "c", lane: "top", col: 2, type: "service", label: "C" },
  ],
  edges: [],
});

/** Where `x` lies between a's right side and b's left side: 0 at a, 1 at b. */
function between(d: WorkflowDiagram, x: number): number {
  const layout = layoutDiagram(d);
  const box = (id: string) => layout.nodes.find((n) => n.id === id)?.box;
  const a = box("a");
  const b = box("b");
  if (!a || !b) throw new Error("missing node");
  return (x - (a.x + a.width)) / (b.x - (a.x + a.width));
}

describe("via, channelX and channelY are in the description's own grid, before any filling", () => {
  it("a channelX keeps its place between the same nodes when a viewBox widens the columns", () => {
    const natural = base();
    const plain = layoutDiagram(natural);
    const a = plain.nodes.find((n) => n.id === "a")?.box;
    if (!a) throw new Error("no a");
    // A quarter of the way from a to b, in the natural grid.
    const b = plain.nodes.find((n) => n.id === "b")?.box;
    if (!b) throw new Error("no b");
    const channelX = a.x + a.width + (b.x - a.x - a.width) / 4;
    const edges = [{ id: "ab", from: "a", to: "b", channelX }];
    const wide = base([2400, 900]);
    wide.edges = edges;
    natural.edges = edges;
    const runX = (d: WorkflowDiagram) => {
      const pts = layoutDiagram(d).edges[0]?.points as Point[];
      return (pts.find((p, i) => i > 0 && pts[i - 1]?.x === p.x) as Point).x;
    };
    expect(layoutDiagram(wide).width).toBe(2400);
    expect(between(wide, runX(wide))).toBeCloseTo(between(natural, runX(natural)), 2);
    expect(between(wide, runX(wide))).toBeCloseTo(0.25, 2);
  });

  it("via points and channelY follow the stretched grid too", () => {
    const natural = base();
    const plain = layoutDiagram(natural);
    const c = plain.nodes.find((n) => n.id === "c")?.box;
    const lanes = plain.lanes;
    if (!c || !lanes[1]) throw new Error("missing");
    // A via point in the middle of the bottom lane under c, and a channel in the gap.
    const via = { x: c.x + c.width / 2, y: lanes[1].box.y + lanes[1].box.height / 2 };
    const edges = [{ id: "ca", from: "c", to: "a", via: [via] }];
    const tall = base([2400, 1200]);
    tall.edges = edges;
    const layout = layoutDiagram(tall);
    const cc = layout.nodes.find((n) => n.id === "c")?.box;
    const lane = layout.lanes[1]?.box;
    if (!cc || !lane) throw new Error("missing");
    const pts = layout.edges[0]?.points as Point[];
    const target = { x: cc.x + cc.width / 2, y: lane.y + lane.height / 2 };
    const hit = pts.find((p) => Math.hypot(p.x - target.x, p.y - target.y) < 0.05);
    expect(hit, JSON.stringify({ pts, target })).toBeDefined();
  });
});
