import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateArchitecture } from "../bench/architecture-workload.mjs";
import { generateDataFlow } from "../bench/data-flow-workload.mjs";
import { arrowheadHalfWidth, arrowheadLength, WIDEST_STROKE } from "../src/core/arrowhead.js";
import { segmentMeetsBox } from "../src/core/geometry.js";
import { ASPECT_LIMIT, HEAD_LIMIT } from "../src/core/graph-check.js";
import type { LifecycleLayout } from "../src/types/lifecycle/layout.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { drawnLines, sharedHeads } from "./support/drawn-heads.js";
import { GRAPH_TYPES, type GraphType, layOutSource, warningsOf } from "./support/graph-corpus.js";
import { loopLabelFault } from "./support/loop-label.js";

// No two arrowheads at one point (a hub many boxes write to, a final state three transitions
// end in), a note's leader clear of its state's self-loops, a self-loop's label beside its loop
// rather than on its line, and large drawings within the page's aspect. The same arrowhead check
// runs on the seeded corpus in graph-backward.test.ts (it shares that file's layouts). Nothing
// here is timed.
const SLOW = 120_000;

const WRITERS = Array.from({ length: 9 }, (_, i) => `w${i + 1}`);

/** Nine containers writing to one database. */
const hubArchitecture = {
  schema_version: 2,
  diagram_type: "architecture",
  meta: { title: "Nine writers, one store" },
  elements: [
    ...WRITERS.map((id) => ({ id, kind: "container", label: `Writer ${id.slice(1)}` })),
    { id: "hub", kind: "database", label: "Order store" },
  ],
  relationships: WRITERS.map((id) => ({ from: id, to: "hub", label: "writes" })),
};

/** Nine partners sending orders to one process. */
const hubDataFlow = {
  schema_version: 2,
  diagram_type: "data-flow",
  meta: { title: "Nine partners, one process" },
  elements: [
    ...WRITERS.map((id) => ({ id, kind: "entity", label: `Partner ${id.slice(1)}` })),
    { id: "hub", kind: "process", label: "Take orders" },
    { id: "db", kind: "store", label: "Orders" },
  ],
  flows: [
    ...WRITERS.map((id) => ({ from: id, to: "hub", label: "order" })),
    { from: "hub", to: "db", label: "row" },
  ],
};

/** Three transitions into one final state. */
const threeEnds = {
  schema_version: 2,
  diagram_type: "lifecycle",
  meta: { title: "Three ways to end" },
  states: [
    { id: "start", kind: "initial" },
    { id: "open", label: "Open" },
    { id: "paid", label: "Paid" },
    { id: "void", label: "Void" },
    { id: "end", kind: "final" },
  ],
  transitions: [
    { from: "start", to: "open" },
    { from: "open", to: "paid", event: "pay" },
    { from: "open", to: "void", event: "cancel" },
    { from: "open", to: "end", event: "expire" },
    { from: "paid", to: "end", event: "archive" },
    { from: "void", to: "end", event: "purge" },
  ],
};

/** States with self-loops and notes on either side of them. */
function loopsAndNotes(direction?: string) {
  return {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: "Loops beside notes", ...(direction ? { direction } : {}) },
    states: [
      { id: "start", kind: "initial" },
      { id: "open", label: "Open" },
      { id: "sending", label: "Sending" },
      { id: "sent", label: "Sent" },
      { id: "end", kind: "final" },
    ],
    transitions: [
      { from: "start", to: "open" },
      { from: "open", to: "sending", event: "send" },
      { from: "sending", to: "sending", event: "retry", guard: "attempts < 5" },
      { from: "open", to: "open", event: "edit" },
      { from: "sent", to: "sent", event: "resend" },
      { from: "sending", to: "sent", event: "delivered" },
      { from: "sent", to: "end" },
    ],
    notes: [
      { state: "sending", text: "Retries back off exponentially", side: "right" },
      { state: "open", text: "Edits keep the draft", side: "left" },
      { state: "sent", text: "Receipts arrive later", side: "below" },
    ],
  };
}

async function laidOut(description: object): Promise<{ type: GraphType; laid: unknown }> {
  return layOutSource(JSON.stringify(description));
}

describe("no two arrowheads at one point", () => {
  it("the overlap check's tolerance is at least the arrowhead's own size", () => {
    expect(HEAD_LIMIT).toBeGreaterThanOrEqual(10.5);
    expect(HEAD_LIMIT).toBeGreaterThanOrEqual(arrowheadLength(WIDEST_STROKE));
    expect(HEAD_LIMIT).toBeGreaterThanOrEqual(2 * arrowheadHalfWidth(WIDEST_STROKE));
  });

  const examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f, readFileSync(join(EXAMPLES_DIR, f), "utf8")] as const)
    .filter(([, s]) => GRAPH_TYPES.includes(JSON.parse(s).diagram_type));
  for (const [file, source] of examples) {
    it(`${file}: every arrowhead at its own point`, async () => {
      const { type, laid } = await layOutSource(source);
      expect(sharedHeads(drawnLines(type, laid))).toEqual([]);
    });
  }

  for (const [name, hub] of [
    ["architecture", hubArchitecture],
    ["data-flow", hubDataFlow],
  ] as const) {
    it(`${name}: nine lines into one box arrive spread along its side or as one trunk`, async () => {
      const { type, laid } = await laidOut(hub);
      const lines = drawnLines(type, laid as never);
      expect(sharedHeads(lines)).toEqual([]);
      expect(warningsOf(laid as never)).toEqual([]);
      // Each line still ends on the hub.
      expect(lines.filter((l) => l.to === "hub")).toHaveLength(9);
    });
  }

  it("lifecycle: three transitions into a final state do not arrive on one arrowhead", async () => {
    const { type, laid } = await laidOut(threeEnds);
    const lines = drawnLines(type, laid as never);
    expect(sharedHeads(lines)).toEqual([]);
    const into = lines.filter((l) => l.to === "end");
    const tips = new Set(into.map((l) => JSON.stringify(l.points[l.points.length - 1])));
    // Lines whose tips coincide are one trunk (sharedHeads passed); the line from beside the
    // final state turns to the side facing it with an arrowhead of its own.
    expect(tips.size).toBeGreaterThan(1);
    expect(warningsOf(laid as never)).toEqual([]);
  });
});

describe("self-loops beside notes", () => {
  for (const direction of [undefined, "down", "right", "up", "left"]) {
    it(`direction ${direction ?? "chosen"}: no note's leader crosses a self-loop, no loop label on its line`, async () => {
      const { laid } = await laidOut(loopsAndNotes(direction));
      const l = laid as LifecycleLayout;
      const loops = l.transitions.filter((t) => t.from === t.to);
      expect(loops).toHaveLength(3);
      const found: string[] = [];
      for (const note of l.notes) {
        for (const t of loops) {
          const [a, b] = note.link as [(typeof note.link)[0], (typeof note.link)[0]];
          const crossed = t.points.some((p, i) => {
            const q = t.points[i - 1];
            if (!q) return false;
            const run = {
              x: Math.min(p.x, q.x),
              y: Math.min(p.y, q.y),
              width: Math.abs(p.x - q.x),
              height: Math.abs(p.y - q.y),
            };
            return segmentMeetsBox(a, b, run);
          });
          if (crossed) found.push(`note ${note.id}'s leader crosses loop ${t.id}`);
        }
      }
      for (const t of loops) {
        const fault = t.label ? loopLabelFault(t.points, t.label.background) : "has no label";
        if (fault) found.push(`label of ${t.id} ${fault}`);
      }
      expect(found).toEqual([]);
      expect(warningsOf(l)).toEqual([]);
    });
  }
});

describe("large drawings keep within the page's aspect", () => {
  const large: [string, object][] = [
    ["architecture, 60 elements", generateArchitecture({ elements: 60 })],
    ["architecture, 100 elements", generateArchitecture({ elements: 100 })],
    ["data-flow, 60 elements", generateDataFlow({ elements: 60 })],
    ["data-flow, 100 elements", generateDataFlow({ elements: 100 })],
  ];
  for (const [name, description] of large) {
    it(
      `${name}: within 1:${ASPECT_LIMIT} … ${ASPECT_LIMIT}:1`,
      async () => {
        const { laid } = await laidOut(description);
        const { width, height } = laid as { width: number; height: number };
        expect(width / height).toBeLessThanOrEqual(ASPECT_LIMIT);
        expect(height / width).toBeLessThanOrEqual(ASPECT_LIMIT);
      },
      SLOW,
    );
  }
});
