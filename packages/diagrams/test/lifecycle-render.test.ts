import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateLifecycle } from "../bench/lifecycle-workload.mjs";
import { main } from "../src/cli/dispatch.js";
import type { RenderOptions } from "../src/core/diagram-type.js";
import { boxContains, boxesOverlap, inflate, segmentMeetsBox } from "../src/core/geometry.js";
import { VISUAL_PRESETS } from "../src/core/model.js";
import { type } from "../src/types/lifecycle/index.js";
import type { LifecycleDiagram } from "../src/types/lifecycle/model.js";
import { starter } from "../src/types/lifecycle/starter.js";
import { validateAs } from "../src/validate/as-type.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { golden } from "./support/golden.js";
import { type DrawnSvg, readSvg } from "./support/lifecycle-svg.js";
import { loopLabelFault } from "./support/loop-label.js";

// Golden SVGs: test/testdata/<case>/exp*.svg. After an intended change to the drawing, refresh
// them with `UPDATE_GOLDEN=1 npx vitest run --project diagrams lifecycle-render` and look at
// them (render to PNG) before committing.
// Rendering is slow on a loaded machine; nothing here is timed.
const SLOW = 120_000;

function load(file: string): LifecycleDiagram {
  const result = validateAs<LifecycleDiagram>(type, readFileSync(file, "utf8"), { file });
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.diagram;
}

const EXAMPLES = [
  "sales-order-lifecycle",
  "access-token-lifecycle",
  "change-language-lifecycle",
] as const;

async function render(d: LifecycleDiagram, options: RenderOptions = {}): Promise<string> {
  return type.render(d, await type.layout(d), options);
}

/** The geometric promises of a lifecycle drawing, checked on the SVG text. */
function geometryProblems(drawn: DrawnSvg): string[] {
  const found: string[] = [];
  const eps = 0.5;
  const shrink = (b: Parameters<typeof inflate>[0]) => inflate(b, -eps);
  const solid = drawn.states.filter((s) => s.shape !== "composite");
  const byId = new Map(drawn.states.map((s) => [s.id, s]));

  // No text over another text (lines of one block are stacked, never overlapping either).
  for (let i = 0; i < drawn.texts.length; i++) {
    for (let j = i + 1; j < drawn.texts.length; j++) {
      const a = drawn.texts[i] as DrawnSvg["texts"][number];
      const b = drawn.texts[j] as DrawnSvg["texts"][number];
      if (boxesOverlap(shrink(a.box), shrink(b.box))) {
        found.push(`text "${a.text}" (${a.owner}) overlaps text "${b.text}" (${b.owner})`);
      }
    }
  }
  // No text over a state it does not belong to.
  for (const t of drawn.texts) {
    for (const s of solid) {
      if (t.owner !== s.id && boxesOverlap(shrink(t.box), s.box)) {
        found.push(`text "${t.text}" (${t.owner}) is over state ${s.id}`);
      }
    }
  }
  // A composite's own label sits clear of the states it holds.
  for (const t of drawn.texts) {
    for (const s of drawn.states) {
      if (s.parent !== undefined && s.parent === t.owner && boxesOverlap(shrink(t.box), s.box)) {
        found.push(`composite ${t.owner}'s label "${t.text}" is over its state ${s.id}`);
      }
    }
  }
  // Every label touches its own line and covers no state and no other label.
  const labels = [...drawn.labels];
  for (const [id, box] of labels) {
    const line = drawn.edges.get(id) ?? [];
    // A self-loop's label stands beside its loop, off its line; any other rides its line.
    const loopFault = drawn.loops.has(id) ? loopLabelFault(line, box) : undefined;
    if (loopFault) found.push(`label of ${id} ${loopFault}`);
    const touches = line.some((p, i) => i > 0 && segmentMeetsBox(line[i - 1] ?? p, p, box));
    if (!drawn.loops.has(id) && !touches) found.push(`label of ${id} does not touch its line`);
    for (const s of solid) {
      if (boxesOverlap(shrink(box), s.box)) found.push(`label of ${id} is over state ${s.id}`);
    }
    for (const [other, b] of labels) {
      if (other > id && boxesOverlap(shrink(box), shrink(b))) {
        found.push(`label of ${id} overlaps label of ${other}`);
      }
    }
  }
  // Composite states contain their states; states of one region do not overlap.
  for (const s of drawn.states) {
    if (s.parent === undefined) continue;
    const parent = byId.get(s.parent);
    if (!parent || !boxContains(parent.box, s.box)) found.push(`${s.id} is not inside ${s.parent}`);
  }
  for (let i = 0; i < drawn.states.length; i++) {
    for (let j = i + 1; j < drawn.states.length; j++) {
      const a = drawn.states[i] as DrawnSvg["states"][number];
      const b = drawn.states[j] as DrawnSvg["states"][number];
      if (a.parent === b.parent && boxesOverlap(a.box, b.box)) {
        found.push(`states ${a.id} and ${b.id} overlap`);
      }
    }
  }
  return found;
}

const cases: [string, () => LifecycleDiagram][] = [
  ...EXAMPLES.map((n): [string, () => LifecycleDiagram] => [
    n,
    () => load(join(EXAMPLES_DIR, `${n}.json`)),
  ]),
  ["starter", () => starter],
  [
    "starter, direction down",
    () => ({ ...starter, meta: { ...starter.meta, direction: "down" as const } }),
  ],
  [
    "self-transitions, a note inside a composite, direction up",
    () => {
      const d = structuredClone(starter);
      d.meta.direction = "up";
      d.transitions.push(
        { from: "draft", to: "draft", event: "edit", action: "saved as a new version" },
        { from: "checking", to: "checking", event: "retry", guard: "supplier slow" },
      );
      d.notes?.push({ state: "checking", text: "Stock comes from the warehouse system." });
      return d;
    },
  ],
  ["generated 40 states", () => generateLifecycle({ states: 40 })],
  [
    "generated 40 states, direction down",
    () => {
      const d = generateLifecycle({ states: 40, seed: 11 });
      return { ...d, meta: { ...d.meta, direction: "down" as const } };
    },
  ],
];

describe("lifecycle geometry, read back from the SVG", () => {
  for (const [name, make] of cases) {
    it(
      name,
      async () => {
        const d = make();
        expect(validateAs(type, JSON.stringify(d)).problems).toEqual([]);
        const drawn = readSvg(await render(d));
        // The reader found what was drawn: every state, every transition, every label.
        const named = (list: LifecycleDiagram["states"]): number =>
          list.reduce((n, s) => n + 1 + named(s.states ?? []), 0);
        expect(drawn.states).toHaveLength(named(d.states));
        expect(drawn.edges.size).toBe(d.transitions.length);
        expect(drawn.labels.size).toBe(
          d.transitions.filter((t) => t.event || t.guard || t.action).length,
        );
        expect(drawn.texts.length).toBeGreaterThan(drawn.labels.size);
        expect(geometryProblems(drawn)).toEqual([]);
      },
      SLOW,
    );
  }

  it(
    "the checks catch a label moved off its line and a state moved out of its composite",
    async () => {
      const svg = await render(starter);
      const drawn = readSvg(svg);
      const [id, box] = [...drawn.labels][0] ?? [];
      if (!id || !box) throw new Error("no label");
      drawn.labels.set(id, { ...box, x: box.x + 2000 });
      const inner = drawn.states.find((s) => s.parent !== undefined);
      if (!inner) throw new Error("no nested state");
      inner.box = { ...inner.box, y: inner.box.y - 1000 };
      const problems = geometryProblems(drawn);
      expect(problems).toContain(`label of ${id} does not touch its line`);
      expect(problems).toContain(`${inner.id} is not inside ${inner.parent}`);
    },
    SLOW,
  );
});

describe("lifecycle rendering", () => {
  it(
    "is byte-identical on every run (the same description, the same SVG)",
    async () => {
      const d = load(join(EXAMPLES_DIR, "sales-order-lifecycle.json"));
      expect(await render(d)).toBe(await render(structuredClone(d)));
    },
    SLOW,
  );

  it(
    "every coordinate has at most two decimals",
    async () => {
      const svg = await render(generateLifecycle({ states: 40 }));
      expect(svg.match(/\d+\.\d{3,}/g) ?? []).toEqual([]);
    },
    SLOW,
  );

  it(
    "states, transitions and labels carry names for assistive technology",
    async () => {
      const svg = await render(load(join(EXAMPLES_DIR, "sales-order-lifecycle.json")));
      expect(svg).toContain('aria-label="state Received: signed, stored once"');
      expect(svg).toContain('aria-label="initial state"');
      expect(svg).toContain('aria-label="final state"');
      expect(svg).toContain('<title id="owd-title">Sales order lifecycle</title>');
    },
    SLOW,
  );

  it(
    "the HTML trace plays the main run from the initial state, transition by transition",
    async () => {
      const d = load(join(EXAMPLES_DIR, "sales-order-lifecycle.json"));
      const steps = type.interaction?.(d, await type.layout(d)).trace ?? [];
      expect(steps.map((s) => `${s.kind}:${s.id}`)).toEqual([
        "node:start",
        "edge:t0",
        "node:received",
        "edge:accept",
        "node:accepted",
        "edge:fulfil",
        "node:fulfilled",
        "edge:t7",
        "node:end",
      ]);
    },
    SLOW,
  );

  it("the starter uses every kind of state", () => {
    const kinds = new Set<string>();
    const walk = (list: LifecycleDiagram["states"]) => {
      for (const s of list) {
        kinds.add(s.states ? "composite" : (s.kind ?? "normal"));
        walk(s.states ?? []);
      }
    };
    walk(starter.states);
    expect([...kinds].sort()).toEqual(["choice", "composite", "final", "initial", "normal"]);
    expect(starter.notes?.length).toBeGreaterThan(0);
  });
});

describe("golden lifecycle SVGs", () => {
  for (const name of EXAMPLES) {
    it(
      name,
      async () => {
        golden(name, "exp.svg", await render(load(join(EXAMPLES_DIR, `${name}.json`))));
      },
      SLOW,
    );
  }
  it(
    "starter",
    async () => {
      golden("lifecycle-starter", "exp.svg", await render(starter));
    },
    SLOW,
  );
  it(
    "sales order in every preset, and the showcase profile",
    async () => {
      const d = load(join(EXAMPLES_DIR, "sales-order-lifecycle.json"));
      const layout = await type.layout(d);
      for (const preset of VISUAL_PRESETS) {
        golden("sales-order-lifecycle", `exp.${preset}.svg`, type.render(d, layout, { preset }));
      }
      golden(
        "sales-order-lifecycle",
        "exp.showcase.svg",
        type.render(d, layout, { preset: "signal-flow", quality: "showcase" }),
      );
    },
    SLOW,
  );
});

describe("orderline-diagrams on a lifecycle", () => {
  it(
    "render writes the SVG the library draws, and PNG and HTML",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "lifecycle-cli-"));
      const file = join(EXAMPLES_DIR, "sales-order-lifecycle.json");
      let stderr = "";
      const io = { stdout: () => {}, stderr: (t: string) => (stderr += t), cwd: dir };
      for (const ext of ["svg", "png", "html"]) {
        expect(await main(["render", file, "-o", `out.${ext}`], io), stderr).toBe(0);
      }
      expect(readFileSync(join(dir, "out.svg"), "utf8")).toBe(await render(load(file)));
      expect(readFileSync(join(dir, "out.png")).subarray(1, 4).toString()).toBe("PNG");
      const html = readFileSync(join(dir, "out.html"), "utf8");
      expect(html).toContain("Play the main run");
      expect(html).toContain("Cancellations");
    },
    SLOW,
  );

  it("validate reports a lifecycle rule with file:line:col and rule id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lifecycle-cli-"));
    const d = structuredClone(starter);
    d.transitions.push({ from: "end", to: "draft", event: "reopen" });
    writeFileSync(join(dir, "bad.json"), JSON.stringify(d, null, 2));
    let stdout = "";
    const io = { stdout: (t: string) => (stdout += t), stderr: () => {}, cwd: dir };
    expect(await main(["validate", "bad.json"], io)).toBe(1);
    expect(stdout).toMatch(
      /^bad\.json:\d+:\d+ {2}\/transitions\/8\/from {2}transition leaves final state "end".*\[final\/outgoing\]$/m,
    );
  });
});
