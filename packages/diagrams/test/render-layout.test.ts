import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../bench/workload.mjs";
import { boxesOverlap, inflate, segmentHitsBox } from "../src/core/geometry.js";
import { layoutDiagram } from "../src/types/workflow/layout/index.js";
import type { Box, Layout } from "../src/types/workflow/layout/types.js";
import type { Point, WorkflowDiagram } from "../src/types/workflow/model.js";
import { renderCases } from "./support/cases.js";

/** True when the axis-aligned segment passes through the box's interior (by more than 0.5). */
const crosses = (a: Point, b: Point, box: Box) => segmentHitsBox(a, b, inflate(box, -0.5));

/** Every edge segment against every node box: only an edge's own ends may be touched, by its end segments. */
function crossings(layout: Layout): string[] {
  const found: string[] = [];
  for (const edge of layout.edges) {
    const pts = edge.points;
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1] as Point;
      const b = pts[i] as Point;
      for (const node of layout.nodes) {
        const isEnd =
          (node.id === edge.edge.from && i === 1) ||
          (node.id === edge.edge.to && i === pts.length - 1);
        if (!isEnd && crosses(a, b, node.box))
          found.push(`${edge.id} segment ${i} crosses ${node.id}`);
      }
    }
  }
  return found;
}

function orthogonal(points: Point[]): boolean {
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    if (a.x !== b.x && a.y !== b.y) return false;
  }
  return true;
}

function onBoundary(p: Point, box: Box): boolean {
  const inX = p.x >= box.x - 0.01 && p.x <= box.x + box.width + 0.01;
  const inY = p.y >= box.y - 0.01 && p.y <= box.y + box.height + 0.01;
  const onV = Math.abs(p.x - box.x) < 0.01 || Math.abs(p.x - box.x - box.width) < 0.01;
  const onH = Math.abs(p.y - box.y) < 0.01 || Math.abs(p.y - box.y - box.height) < 0.01;
  return (onV && inY) || (onH && inX);
}

function checkRouting(layout: Layout) {
  const boxes = new Map(layout.nodes.map((n) => [n.id, n.box]));
  for (const edge of layout.edges) {
    expect(orthogonal(edge.points), `${edge.id} is orthogonal`).toBe(true);
    expect(
      onBoundary(edge.points[0] as Point, boxes.get(edge.edge.from) as Box),
      `${edge.id} starts on its source`,
    ).toBe(true);
    expect(
      onBoundary(edge.arrow.tip, boxes.get(edge.edge.to) as Box),
      `${edge.id} ends on its target`,
    ).toBe(true);
  }
  expect(crossings(layout)).toEqual([]);
}

const tiny = (
  edges: WorkflowDiagram["edges"],
  extra: Partial<WorkflowDiagram> = {},
): WorkflowDiagram => ({
  schema_version: 1,
  diagram_type: "workflow",
  meta: { title: "t" },
  lanes: [
    { id: "l0", label: "Lane 0" },
    { id: "l1", label: "Lane 1" },
  ],
  nodes: [
    { id: "a", lane: "l0", col: 0, type: "service", label: "A" },
    { id: "b", lane: "l0", col: 1, type: "service", label: "B" },
    { id: "c", lane: "l0", col: 2, type: "service", label: "C" },
    { id: "d", lane: "l1", col: 2, type: "service", label: "D" },
    { id: "e", lane: "l1", col: 0, type: "service", label: "E" },
  ],
  edges,
  ...extra,
});

const edgeOf = (layout: Layout, id: string) => {
  const e = layout.edges.find((x) => x.id === id);
  if (!e) throw new Error(`no edge ${id}`);
  return e;
};

describe("routing on the examples and the render cases", () => {
  for (const c of renderCases()) {
    it(`${c.name}: orthogonal, attached to both ends, crossing no node`, () => {
      checkRouting(layoutDiagram(c.diagram));
    });
  }
});

describe("edge labels on the examples and the render cases", () => {
  const overlap = boxesOverlap;
  for (const c of renderCases()) {
    it(`${c.name}: automatically placed labels cover no node and no other label`, () => {
      const layout = layoutDiagram(c.diagram);
      const auto = layout.edges.filter(
        (e) =>
          e.label &&
          !e.edge.labelAt &&
          e.edge.labelDx === undefined &&
          e.edge.labelDy === undefined,
      );
      const found: string[] = [];
      for (const e of auto) {
        const bg = e.label?.background as Box;
        for (const n of layout.nodes) if (overlap(bg, n.box)) found.push(`${e.id} covers ${n.id}`);
        for (const o of layout.edges) {
          if (o !== e && o.label && overlap(bg, o.label.background))
            found.push(`${e.id} covers label of ${o.id}`);
        }
      }
      expect(found).toEqual([]);
    });
  }
});

describe("edge labels clear of other edges", () => {
  /** Automatically placed labels whose background another edge's line passes through. */
  const labelsOnOtherEdges = (layout: Layout): string[] => {
    const found: string[] = [];
    for (const e of layout.edges) {
      if (!e.label || e.edge.labelAt || e.edge.labelDx !== undefined) continue;
      if (e.edge.labelDy !== undefined) continue;
      const bg = e.label.background;
      for (const o of layout.edges) {
        if (o === e) continue;
        for (let i = 1; i < o.points.length; i++) {
          if (crosses(o.points[i - 1] as Point, o.points[i] as Point, bg)) {
            found.push(`label of ${e.id} lies on ${o.id}`);
            break;
          }
        }
      }
    }
    return found;
  };

  for (const c of renderCases()) {
    it(`${c.name}: no label sits on another edge's line`, () => {
      expect(labelsOnOtherEdges(layoutDiagram(c.diagram))).toEqual([]);
    });
  }

  it("a label whose middle spot lies on another edge moves along its own edge", () => {
    // b's edge to d runs down the gutter right of column 1; a's long edge to c crosses it
    // through the lane gap, right where the middle of the vertical run's label would go.
    const layout = layoutDiagram(
      tiny([
        { id: "down", from: "b", to: "d", label: "a label on the way down", route: "drop" },
        { id: "across", from: "e", to: "c", fromSide: "top", toSide: "bottom", channelY: 0 },
      ]),
    );
    expect(labelsOnOtherEdges(layout)).toEqual([]);
  });

  it("labels stay inside the drawing and off group and phase outlines where they can", () => {
    for (const c of renderCases()) {
      const layout = layoutDiagram(c.diagram);
      const width = layout.width / layout.scale;
      const height = layout.height / layout.scale;
      for (const e of layout.edges) {
        if (!e.label || e.edge.labelAt) continue;
        const bg = e.label.background;
        expect(bg.x >= 0 && bg.y >= 0, `${c.name} ${e.id}`).toBe(true);
        expect(bg.x + bg.width <= width && bg.y + bg.height <= height, `${c.name} ${e.id}`).toBe(
          true,
        );
      }
    }
  });
});

describe("edges sharing a channel", () => {
  for (const c of renderCases()) {
    it(`${c.name}: no two edges draw along the same line`, () => {
      const layout = layoutDiagram(c.diagram);
      const segs = layout.edges.flatMap((e) =>
        e.points.slice(1).map((b, i) => ({ id: e.id, a: e.points[i] as Point, b })),
      );
      const shared: string[] = [];
      for (let i = 0; i < segs.length; i++) {
        for (let j = i + 1; j < segs.length; j++) {
          const s = segs[i] as (typeof segs)[number];
          const t = segs[j] as (typeof segs)[number];
          if (s.id === t.id) continue;
          const vertical = s.a.x === s.b.x && t.a.x === t.b.x && s.a.x === t.a.x;
          const horizontal = s.a.y === s.b.y && t.a.y === t.b.y && s.a.y === t.a.y;
          const [lo1, hi1, lo2, hi2] = vertical
            ? [
                Math.min(s.a.y, s.b.y),
                Math.max(s.a.y, s.b.y),
                Math.min(t.a.y, t.b.y),
                Math.max(t.a.y, t.b.y),
              ]
            : [
                Math.min(s.a.x, s.b.x),
                Math.max(s.a.x, s.b.x),
                Math.min(t.a.x, t.b.x),
                Math.max(t.a.x, t.b.x),
              ];
          if ((vertical || horizontal) && Math.min(hi1, hi2) - Math.max(lo1, lo2) > 4) {
            shared.push(`${s.id} and ${t.id}`);
          }
        }
      }
      expect(shared).toEqual([]);
    });
  }
});

describe("routing on generated workflows", () => {
  const sizes = [
    { lanes: 3, cols: 4, nodes: 12, edges: 20 },
    { lanes: 5, cols: 6, nodes: 30, edges: 45 },
    { lanes: 20, cols: 6, nodes: 120, edges: 200 },
  ];
  for (const size of sizes) {
    it(`${size.lanes} lanes, ${size.nodes} nodes, ${size.edges} edges`, () => {
      const layout = layoutDiagram(generateWorkflow(size));
      expect(layout.edges).toHaveLength(size.edges);
      checkRouting(layout);
    });
  }
});

describe("routing on random workflows", () => {
  it("200 seeded random workflows: every edge orthogonal, attached, crossing no node", () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
    const routes = [
      "auto",
      "straight",
      "drop",
      "outside-right",
      "return-left",
      "bottom-channel",
      "up-channel",
    ] as const;
    const sides = ["left", "right", "top", "bottom"] as const;
    for (let t = 0; t < 200; t++) {
      const laneCount = 1 + Math.floor(rnd() * 5);
      const taken = new Set<string>();
      const nodes: WorkflowDiagram["nodes"] = [];
      for (let i = 0; i < 2 + Math.floor(rnd() * 12); i++) {
        const lane = Math.floor(rnd() * laneCount);
        const col = Math.floor(rnd() * 6);
        if (taken.has(`${lane},${col}`)) continue;
        taken.add(`${lane},${col}`);
        const node: WorkflowDiagram["nodes"][number] = {
          id: `n${i}`,
          lane: `l${lane}`,
          col,
          type: "service",
          label: "x".repeat(1 + Math.floor(rnd() * 30)),
        };
        if (rnd() < 0.2) node.yOffset = Math.round(rnd() * 40 - 20);
        if (rnd() < 0.2) {
          node.width = 40 + Math.round(rnd() * 200);
          node.height = 32 + Math.round(rnd() * 80);
        }
        nodes.push(node);
      }
      if (nodes.length < 2) continue;
      const edges: WorkflowDiagram["edges"] = [];
      for (let i = 0; i < Math.floor(rnd() * 15); i++) {
        const edge: WorkflowDiagram["edges"][number] = {
          id: `e${i}`,
          from: pick(nodes).id,
          to: pick(nodes).id,
          route: pick(routes),
        };
        if (rnd() < 0.5) edge.label = "label";
        if (rnd() < 0.3) edge.fromSide = pick(sides);
        if (rnd() < 0.3) edge.toSide = pick(sides);
        if (rnd() < 0.3) edge.bias = rnd();
        edges.push(edge);
      }
      const lanes = Array.from({ length: laneCount }, (_, i) => ({
        id: `l${i}`,
        label: `Lane ${i}`,
      }));
      const diagram: WorkflowDiagram = {
        schema_version: 1,
        diagram_type: "workflow",
        meta: { title: `random ${t}` },
        lanes,
        nodes,
        edges,
      };
      checkRouting(layoutDiagram(diagram));
    }
  });
});

describe("edge fields", () => {
  it("an auto edge past a node in its way goes round it instead of through it", () => {
    const layout = layoutDiagram(tiny([{ id: "x", from: "a", to: "c" }]));
    const edge = edgeOf(layout, "x");
    expect(edge.points.length).toBeGreaterThan(2);
    checkRouting(layout);
  });

  it("straight draws one segment between facing sides", () => {
    const layout = layoutDiagram(tiny([{ id: "x", from: "a", to: "b", route: "straight" }]));
    expect(edgeOf(layout, "x").points).toHaveLength(2);
  });

  it("drop leaves by the bottom and enters by the top", () => {
    const layout = layoutDiagram(tiny([{ id: "x", from: "a", to: "d", route: "drop" }]));
    const e = edgeOf(layout, "x");
    expect([e.fromSide, e.toSide]).toEqual(["bottom", "top"]);
    expect(e.arrow.dy).toBe(1);
  });

  it("outside-right runs in a channel right of every lane", () => {
    const layout = layoutDiagram(tiny([{ id: "x", from: "d", to: "a", route: "outside-right" }]));
    const e = edgeOf(layout, "x");
    const right = layout.body.x + layout.body.width;
    expect(Math.max(...e.points.map((p) => p.x))).toBeGreaterThan(right);
    expect([e.fromSide, e.toSide]).toEqual(["right", "right"]);
  });

  it("return-left leaves and enters by the left, running left of both nodes", () => {
    const layout = layoutDiagram(tiny([{ id: "x", from: "d", to: "a", route: "return-left" }]));
    const e = edgeOf(layout, "x");
    const a = layout.nodes.find((n) => n.id === "a")?.box as Box;
    expect(Math.min(...e.points.map((p) => p.x))).toBeLessThan(a.x);
    expect([e.fromSide, e.toSide]).toEqual(["left", "left"]);
  });

  it("bottom-channel runs below both nodes, up-channel above both", () => {
    const layout = layoutDiagram(
      tiny([
        { id: "down", from: "a", to: "c", route: "bottom-channel" },
        { id: "up", from: "a", to: "c", route: "up-channel" },
      ]),
    );
    const a = layout.nodes.find((n) => n.id === "a")?.box as Box;
    const down = edgeOf(layout, "down");
    const up = edgeOf(layout, "up");
    expect(Math.max(...down.points.map((p) => p.y))).toBeGreaterThan(a.y + a.height);
    expect(Math.min(...up.points.map((p) => p.y))).toBeLessThan(a.y);
    expect([up.fromSide, up.toSide]).toEqual(["top", "top"]);
  });

  it("fromSide and toSide override the route's sides", () => {
    const layout = layoutDiagram(
      tiny([{ id: "x", from: "a", to: "b", fromSide: "top", toSide: "bottom" }]),
    );
    const e = edgeOf(layout, "x");
    const a = layout.nodes.find((n) => n.id === "a")?.box as Box;
    const b = layout.nodes.find((n) => n.id === "b")?.box as Box;
    expect((e.points[0] as Point).y).toBe(a.y);
    expect(e.arrow.tip.y).toBe(b.y + b.height);
  });

  it("via points are passed through in order", () => {
    const layout = layoutDiagram(
      tiny([{ id: "x", from: "a", to: "b", via: [{ x: 300, y: 320 }] }]),
    );
    const e = edgeOf(layout, "x");
    expect(e.points).toContainEqual({ x: 300, y: 320 });
  });

  it("channelX fixes the vertical run and channelY the horizontal run", () => {
    const layout = layoutDiagram(
      tiny([
        { id: "v", from: "a", to: "d", fromSide: "right", toSide: "left", channelX: 420 },
        { id: "h", from: "a", to: "d", fromSide: "bottom", toSide: "top", channelY: 210 },
      ]),
    );
    const v = edgeOf(layout, "v").points;
    const h = edgeOf(layout, "h").points;
    expect(v.filter((p) => p.x === 420)).toHaveLength(2);
    expect(h.filter((p) => p.y === 210)).toHaveLength(2);
  });

  it("bias moves the bend between the two ends", () => {
    const at = (bias: number) => {
      const layout = layoutDiagram(tiny([{ id: "x", from: "a", to: "d", route: "drop", bias }]));
      return (edgeOf(layout, "x").points[1] as Point).y;
    };
    expect(at(0.2)).toBeLessThan(at(0.5));
    expect(at(0.5)).toBeLessThan(at(0.8));
  });

  it("width sets the stroke; role defaults to main on the main path", () => {
    const layout = layoutDiagram(
      tiny(
        [
          { id: "x", from: "a", to: "b", width: 4 },
          { id: "y", from: "b", to: "c" },
          { id: "z", from: "a", to: "e" },
        ],
        { mainPath: ["b", "c"] },
      ),
    );
    expect(edgeOf(layout, "x").strokeWidth).toBe(4);
    expect(edgeOf(layout, "y").role).toBe("main");
    expect(edgeOf(layout, "z").role).toBe("branch");
  });

  it("labelAt places the label's centre, labelDx/labelDy shift it, labelSegment picks the segment", () => {
    const centre = (e: ReturnType<typeof edgeOf>) => {
      const b = e.label?.box as Box;
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const layout = layoutDiagram(
      tiny([
        {
          id: "at",
          from: "a",
          to: "b",
          label: "here",
          labelAt: { x: 250, y: 90 },
          labelDx: 10,
          labelDy: -5,
        },
        { id: "seg", from: "a", to: "d", label: "second", labelSegment: 1 },
      ]),
    );
    const at = centre(edgeOf(layout, "at"));
    expect(Math.abs(at.x - 260)).toBeLessThan(0.02);
    expect(Math.abs(at.y - 85)).toBeLessThan(0.02);
    const seg = edgeOf(layout, "seg");
    const [, p0, p1] = seg.points as [Point, Point, Point];
    const c = centre(seg);
    expect(Math.abs(c.x - (p0.x + p1.x) / 2)).toBeLessThan(0.02);
    expect(Math.abs(c.y - (p0.y + p1.y) / 2)).toBeLessThan(0.02);
  });
});

describe("size", () => {
  it("never goes below 700×240", () => {
    const layout = layoutDiagram({
      schema_version: 1,
      diagram_type: "workflow",
      meta: { title: "x" },
      lanes: [{ id: "l", label: "L" }],
      nodes: [{ id: "n", lane: "l", col: 0, type: "start", label: "N" }],
      edges: [],
    });
    expect(layout.width).toBeGreaterThanOrEqual(700);
    expect(layout.height).toBeGreaterThanOrEqual(240);
  });

  it("meta.viewBox fixes the drawing size: larger stretches, smaller fits by scaling", () => {
    const big = layoutDiagram(tiny([], { meta: { title: "t", viewBox: [1600, 900] } }));
    expect([big.width, big.height, big.scale]).toEqual([1600, 900, 1]);
    expect(big.body.x + big.body.width).toBeGreaterThan(1500);
    const small = layoutDiagram(tiny([], { meta: { title: "t", viewBox: [700, 240] } }));
    expect([small.width, small.height]).toEqual([700, 240]);
    expect(small.scale).toBeLessThan(1);
  });

  it("lanes stack in order, columns run left to right, yOffset moves a node down", () => {
    const d = tiny([]);
    d.nodes.push({ id: "f", lane: "l1", col: 1, type: "service", label: "F", yOffset: 12 });
    const layout = layoutDiagram(d);
    const box = (id: string) => layout.nodes.find((n) => n.id === id)?.box as Box;
    expect(box("a").x).toBeLessThan(box("b").x);
    expect(box("a").y).toBeLessThan(box("e").y);
    expect(box("f").y + box("f").height / 2).toBeCloseTo(box("e").y + box("e").height / 2 + 12, 1);
  });
});
