import { describe, expect, it } from "vitest";
import { boxContains, boxesOverlap, inflate, segmentMeetsBox } from "../src/core/geometry.js";
import { chooseDirection } from "../src/core/graph-direction.js";
import {
  estimateGraphSize,
  finishingLayouter,
  type GraphDirection,
  type GraphEdge,
  type GraphLayout,
  type GraphLayoutInput,
  type GraphNode,
  layoutGraph,
} from "../src/core/graph-layout.js";
import { loopLabelFault } from "./support/loop-label.js";

const SPACING = { node: 32, edge: 14, layer: 56 };

function input(
  nodes: GraphNode[],
  edges: GraphEdge[],
  direction: GraphDirection = "right",
): GraphLayoutInput {
  return { nodes, edges, direction, spacing: SPACING };
}

const node = (id: string, extra: Partial<GraphNode> = {}): GraphNode => ({
  id,
  width: 96,
  height: 40,
  ...extra,
});
const label = { width: 60, height: 20 };

/** A small state machine with a composite, a cycle, a self-loop and a border-crossing edge. */
function machine(direction: GraphDirection = "right"): GraphLayoutInput {
  return input(
    [
      node("start", { width: 18, height: 18, rank: "first" }),
      node("draft"),
      node("review", {
        padding: { top: 40, right: 18, bottom: 18, left: 18 },
        children: [
          node("r0", { width: 18, height: 18, rank: "first" }),
          node("checking"),
          node("decide", { width: 30, height: 30 }),
        ],
      }),
      node("accepted"),
      node("rejected"),
      node("end", { width: 24, height: 24, rank: "last" }),
    ],
    [
      { id: "a", from: "start", to: "draft" },
      { id: "b", from: "draft", to: "review", label },
      { id: "c", from: "r0", to: "checking" },
      { id: "d", from: "checking", to: "decide", label },
      { id: "e", from: "decide", to: "accepted", label: { width: 80, height: 20 } },
      { id: "f", from: "decide", to: "rejected", label },
      { id: "g", from: "rejected", to: "draft", label: { width: 70, height: 34 } },
      { id: "h", from: "draft", to: "draft", label },
      { id: "i", from: "accepted", to: "end" },
      { id: "j", from: "rejected", to: "end" },
    ],
    direction,
  );
}

const leaves = ["start", "draft", "r0", "checking", "decide", "accepted", "rejected", "end"];
const parentOf: Record<string, string | undefined> = {
  r0: "review",
  checking: "review",
  decide: "review",
};

function problems(g: GraphLayout, edges: GraphEdge[]): string[] {
  const found: string[] = [];
  const box = (id: string) => g.nodes.get(id) ?? { x: 0, y: 0, width: 0, height: 0 };
  for (const [id, b] of g.nodes) {
    if (
      b.x < -0.01 ||
      b.y < -0.01 ||
      b.x + b.width > g.width + 0.01 ||
      b.y + b.height > g.height + 0.01
    )
      found.push(`${id} lies outside the drawing`);
  }
  for (let i = 0; i < leaves.length; i++) {
    for (let j = i + 1; j < leaves.length; j++) {
      const a = leaves[i] as string;
      const b = leaves[j] as string;
      if (boxesOverlap(box(a), box(b))) found.push(`${a} overlaps ${b}`);
    }
  }
  for (const [child, parent] of Object.entries(parentOf)) {
    if (parent && !boxContains(box(parent), box(child)))
      found.push(`${child} is not inside ${parent}`);
  }
  const labelled: [
    string,
    NonNullable<GraphLayout["edges"] extends Map<string, infer E> ? E : never>,
  ][] = [];
  for (const e of edges) {
    const laid = g.edges.get(e.id);
    if (!laid) {
      found.push(`edge ${e.id} has no route`);
      continue;
    }
    if (laid.points.length < 2) found.push(`edge ${e.id} has fewer than two points`);
    laid.points.forEach((p, k) => {
      const q = laid.points[k - 1];
      if (q && Math.abs(p.x - q.x) > 0.01 && Math.abs(p.y - q.y) > 0.01)
        found.push(`edge ${e.id} has a slanted segment`);
    });
    if (e.label && !laid.label) found.push(`edge ${e.id} lost its label`);
    if (laid.label) {
      const lb = laid.label;
      labelled.push([e.id, laid]);
      if (Math.abs(lb.width - (e.label?.width ?? 0)) > 0.01) found.push(`label of ${e.id} resized`);
      // A self-loop's label stands beside the loop, off its line; any other rides its edge.
      const loopFault = e.from === e.to ? loopLabelFault(laid.points, lb) : undefined;
      if (loopFault) found.push(`label of ${e.id} ${loopFault}`);
      const touches = laid.points.some(
        (p, k) => k > 0 && segmentMeetsBox(laid.points[k - 1] ?? p, p, lb),
      );
      if (e.from !== e.to && !touches) found.push(`label of ${e.id} is off its edge`);
      for (const id of leaves) {
        if (boxesOverlap(inflate(lb, -0.5), box(id))) found.push(`label of ${e.id} is over ${id}`);
      }
    }
  }
  for (let i = 0; i < labelled.length; i++) {
    for (let j = i + 1; j < labelled.length; j++) {
      const [a, la] = labelled[i] as (typeof labelled)[number];
      const [b, lb] = labelled[j] as (typeof labelled)[number];
      if (la.label && lb.label && boxesOverlap(inflate(la.label, -0.5), inflate(lb.label, -0.5)))
        found.push(`labels of ${a} and ${b} overlap`);
    }
  }
  return found;
}

describe("layered graph layout", () => {
  for (const direction of ["right", "down", "left", "up"] as const) {
    it(`direction ${direction}: nothing overlaps, composites hold their nodes, labels ride their edges`, () => {
      const g = machine(direction);
      expect(problems(layoutGraph(g), g.edges)).toEqual([]);
    });
  }

  it("the flow runs the way asked: start first, end last, forward edges point onwards", () => {
    const centre = (g: GraphLayout, id: string) => {
      const b = g.nodes.get(id) ?? { x: 0, y: 0, width: 0, height: 0 };
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const along = {
      right: (p: { x: number; y: number }) => p.x,
      left: (p: { x: number; y: number }) => -p.x,
      down: (p: { x: number; y: number }) => p.y,
      up: (p: { x: number; y: number }) => -p.y,
    };
    for (const direction of ["right", "down", "left", "up"] as const) {
      const g = layoutGraph(machine(direction));
      const at = (id: string) => along[direction](centre(g, id));
      for (const id of leaves.filter((l) => l !== "start" && parentOf[l] === undefined)) {
        expect(at("start"), `${direction}: start before ${id}`).toBeLessThan(at(id));
      }
      for (const id of leaves.filter((l) => l !== "end" && parentOf[l] === undefined)) {
        expect(at("end"), `${direction}: end after ${id}`).toBeGreaterThan(at(id));
      }
      expect(at("draft")).toBeLessThan(at("review"));
      expect(at("checking")).toBeLessThan(at("decide"));
      // The back edge rejected → draft still ends at draft: its last point is on draft's border.
      const back = g.edges.get("g")?.points ?? [];
      const last = back[back.length - 1] ?? { x: -1, y: -1 };
      expect(
        boxContains(inflate(g.nodes.get("draft") ?? { x: 0, y: 0, width: 0, height: 0 }, 0.01), {
          ...last,
          width: 0,
          height: 0,
        }),
      ).toBe(true);
    }
  });

  it("is deterministic: the same input gives the same numbers", () => {
    const a = layoutGraph(machine());
    const b = layoutGraph(structuredClone(machine()));
    expect([...b.nodes]).toEqual([...a.nodes]);
    expect([...b.edges]).toEqual([...a.edges]);
  });

  it("a straight chain stays on one line", () => {
    const g = layoutGraph(
      input(
        [node("a"), node("b"), node("c")],
        [
          { id: "ab", from: "a", to: "b", label },
          { id: "bc", from: "b", to: "c" },
        ],
      ),
    );
    const ys = ["a", "b", "c"].map((id) => g.nodes.get(id)?.y);
    expect(new Set(ys).size).toBe(1);
    for (const id of ["ab", "bc"]) expect(g.edges.get(id)?.points).toHaveLength(2);
  });

  it("an edge naming a missing node is refused with its id", () => {
    expect(() => layoutGraph(input([node("a")], [{ id: "x", from: "a", to: "nowhere" }]))).toThrow(
      /edge x joins a and nowhere/,
    );
  });
});

describe("graph layout: lines around boxes, hints", () => {
  /** A region whose first node's edges leave past its siblings (the case that used to cut them). */
  const nested = (): GraphLayoutInput =>
    input(
      [
        node("outside"),
        node("group", {
          padding: { top: 40, right: 18, bottom: 18, left: 18 },
          keepOut: { x: 0, y: 0, width: 80, height: 36 },
          children: [node("a"), node("b"), node("c"), node("d")],
        }),
        node("after"),
      ],
      [
        { id: "ab", from: "a", to: "b" },
        { id: "bc", from: "b", to: "c" },
        { id: "cd", from: "c", to: "d" },
        { id: "in", from: "outside", to: "c", label },
        { id: "out", from: "a", to: "after", label },
        { id: "g", from: "outside", to: "group" },
      ],
    );

  it("no line passes through a box it does not join, nor over a compound's keep-out area", () => {
    const spec = nested();
    const laid = layoutGraph(spec);
    const group = laid.nodes.get("group") as NonNullable<ReturnType<typeof laid.nodes.get>>;
    const title = { x: group.x, y: group.y, width: 80, height: 36 };
    for (const e of spec.edges) {
      const points = laid.edges.get(e.id)?.points ?? [];
      for (const [id, box] of laid.nodes) {
        if (id === e.from || id === e.to || id === "group") continue;
        for (let i = 1; i < points.length; i++) {
          const a = points[i - 1] as { x: number; y: number };
          const b = points[i] as { x: number; y: number };
          expect(segmentMeetsBox(a, b, inflate(box, -1)), `${e.id} through ${id}`).toBe(false);
          if (e.to !== "group") {
            expect(segmentMeetsBox(a, b, inflate(title, -1)), `${e.id} over the title`).toBe(false);
          }
        }
      }
      // Orthogonal, and its label on it.
      for (let i = 1; i < points.length; i++) {
        const a = points[i - 1] as { x: number; y: number };
        const b = points[i] as { x: number; y: number };
        expect(Math.abs(a.x - b.x) < 0.01 || Math.abs(a.y - b.y) < 0.01).toBe(true);
      }
      const l = laid.edges.get(e.id)?.label;
      if (l) {
        const touches = points.some(
          (p, i) => i > 0 && segmentMeetsBox(points[i - 1] as typeof p, p, l),
        );
        expect(touches, `${e.id}'s label on its line`).toBe(true);
      }
    }
  });

  it("order hints put hinted nodes of a layer in their order", () => {
    const spec = (first: number, second: number) =>
      input(
        [node("root"), node("x", { order: first }), node("y", { order: second })],
        [
          { id: "rx", from: "root", to: "x" },
          { id: "ry", from: "root", to: "y" },
        ],
      );
    const a = layoutGraph(spec(1, 2));
    const b = layoutGraph(spec(2, 1));
    const ya = (l: GraphLayout, id: string) => l.nodes.get(id)?.y ?? Number.NaN;
    expect(ya(a, "x")).toBeLessThan(ya(a, "y"));
    expect(ya(b, "x")).toBeGreaterThan(ya(b, "y"));
  });

  it("a hidden edge pulls its ends together and is not returned", () => {
    const laid = layoutGraph(
      input(
        [node("a"), node("b"), node("c")],
        [
          { id: "ab", from: "a", to: "b" },
          { id: "near", from: "a", to: "c", hidden: true },
        ],
      ),
    );
    expect(laid.edges.has("near")).toBe(false);
    const a = laid.nodes.get("a");
    const c = laid.nodes.get("c");
    // Without the edge c would sit in the first layer, beside a; with it, one layer on.
    expect((c?.x ?? 0) > (a?.x ?? 0)).toBe(true);
  });

  it("a rough layout finished in place is the full layout, and the rough one kept lines through boxes", () => {
    for (const direction of ["right", "down"] as const) {
      const spec = { ...nested(), direction };
      const full = layoutGraph(spec);
      const layouter = finishingLayouter();
      const rough = layouter({ ...spec, rough: true });
      const roughLines = [...rough.edges].map(([id, e]) => [id, e.points.map((p) => ({ ...p }))]);
      const finished = layouter(spec);
      expect(finished).toBe(rough);
      expect(finished).toEqual(full);
      // Finishing moved lines off the boxes they crossed: the rough layout is not the full one.
      expect(roughLines).not.toEqual([...full.edges].map(([id, e]) => [id, e.points]));
    }
  });

  it("its size estimated from the layers: along, the rough layout's; across, at most it and not far below", () => {
    for (const spec of [
      machine("right"),
      machine("down"),
      { ...nested(), direction: "right" as const },
      { ...nested(), direction: "down" as const },
    ]) {
      const rough = layoutGraph({ ...spec, rough: true });
      const guess = estimateGraphSize(spec);
      const across = spec.direction === "right" ? "height" : "width";
      const along = spec.direction === "right" ? "width" : "height";
      expect(guess[along], spec.direction).toBeCloseTo(rough[along], 3);
      expect(guess[across]).toBeLessThanOrEqual(rough[across] + 0.001);
      expect(guess[across]).toBeGreaterThan(0.7 * rough[across]);
    }
  });
});

describe("choosing a direction", () => {
  it("a try whose estimate misses the page by far is not laid out at all, not even roughly", () => {
    const calls: string[] = [];
    const chosen = chooseDirection(
      undefined,
      "right",
      (direction, wrap, rough) => {
        calls.push(`${direction}${wrap ? " wrapped" : ""}${rough ? " rough" : ""}`);
        return direction === "right" ? { width: 2000, height: 200 } : { width: 600, height: 700 };
      },
      undefined,
      (direction) =>
        direction === "right" ? { width: 2000, height: 300 } : { width: 1, height: 1 },
    );
    expect(calls).toEqual(["down"]);
    expect(chosen).toEqual({ width: 600, height: 700 });
  });

  it("a try whose estimate is near the page is still judged on its rough layout", () => {
    const calls: string[] = [];
    chooseDirection(
      undefined,
      "right",
      (direction, wrap, rough) => {
        calls.push(`${direction}${wrap ? " wrapped" : ""}${rough ? " rough" : ""}`);
        return { width: 600, height: 400 };
      },
      undefined,
      () => ({ width: 1100, height: 400 }),
    );
    expect(calls).toEqual(["right rough", "right"]);
  });

  it("a left-to-right try far wider than a page is not laid out in full; top-down is", () => {
    const calls: string[] = [];
    const chosen = chooseDirection(undefined, "right", (direction, wrap, rough) => {
      calls.push(`${direction}${wrap ? " wrapped" : ""}${rough ? " rough" : ""}`);
      return direction === "right" ? { width: 2000, height: 200 } : { width: 600, height: 700 };
    });
    expect(calls).toEqual(["right rough", "down"]);
    expect(chosen).toEqual({ width: 600, height: 700 });
  });

  it("when nothing fits, the skipped try is laid out in full and the nearest to fitting wins", () => {
    const calls: string[] = [];
    const size = (direction: string, wrap: boolean) =>
      direction === "right"
        ? { width: 3000, height: 200 }
        : { width: 200, height: 2000 + (wrap ? 500 : 0) };
    const chosen = chooseDirection(undefined, "right", (direction, wrap, rough) => {
      calls.push(`${direction}${wrap ? " wrapped" : ""}${rough ? " rough" : ""}`);
      return size(direction, wrap);
    });
    expect(calls).toEqual(["right rough", "down", "right wrapped", "down wrapped", "right"]);
    expect(chosen).toEqual({ width: 200, height: 2000 });
  });

  it("a given direction is laid out once, in full", () => {
    const calls: string[] = [];
    chooseDirection("left", "right", (direction, wrap, rough) => {
      calls.push(`${direction}${wrap ? " wrapped" : ""}${rough ? " rough" : ""}`);
      return { width: 5000, height: 10 };
    });
    expect(calls).toEqual(["left"]);
  });
});
