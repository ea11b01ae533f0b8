import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateArchitecture } from "../bench/architecture-workload.mjs";
import { VISUAL_PRESETS } from "../src/core/model.js";
import { type } from "../src/types/architecture/index.js";
import { layoutArchitecture } from "../src/types/architecture/layout.js";
import { type ArchitectureDiagram, walkDiagram } from "../src/types/architecture/model.js";
import { starter } from "../src/types/architecture/starter.js";
import { validateAs } from "../src/validate/as-type.js";
import { boxDiagramProblems, readBoxDiagram } from "./support/box-diagram-check.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { longWayRound } from "./support/drawn-heads.js";
import { golden } from "./support/golden.js";

// The geometric promises of architecture drawings, judged on the SVG with the shared checker:
// every view of the example and the starter, and generated 60- and 150-element architectures.
const SLOW = 240_000;
/**
 * A boundary is a grouping, not an obstacle (docs/diagrams/architecture.md): a line may cross one
 * holding neither of its ends, entering and leaving it once, but never an element box, a
 * boundary's title, nor along a border.
 */
const CROSSABLE = { crossBoundaries: true } as const;

function load(name: string): ArchitectureDiagram {
  const file = join(EXAMPLES_DIR, `${name}.json`);
  const result = validateAs<ArchitectureDiagram>(type, readFileSync(file, "utf8"), { file });
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems)}`);
  return result.diagram;
}

function valid(d: ArchitectureDiagram): ArchitectureDiagram {
  const result = validateAs<ArchitectureDiagram>(type, JSON.stringify(d), { file: "generated" });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.diagram;
}

const cases: [string, () => ArchitectureDiagram][] = [
  ["orderline-architecture", () => load("orderline-architecture")],
  ["starter", () => starter],
  ["generated 60 elements", () => valid(generateArchitecture({ elements: 60 }))],
  ["generated 100 elements", () => valid(generateArchitecture({ elements: 100 }))],
  ["generated 150 elements", () => valid(generateArchitecture({ elements: 150 }))],
];

describe("architecture drawings keep their geometric promises", () => {
  for (const [name, make] of cases) {
    it(
      `${name}: every view has its children inside their boundaries, no edge through an element or a boundary's title nor along a border, through a boundary holding neither end once in and once out, no text over text or shapes, labels on their own edges`,
      () => {
        const d = make();
        const views = type.views?.(d) ?? [];
        expect(views.length).toBeGreaterThan(0);
        for (const view of views) {
          const layout = layoutArchitecture(d, view.id);
          const svg = type.render(d, layout);
          const read = readBoxDiagram(svg);
          expect(read.elements.filter((e) => e.kind === "element")).toHaveLength(
            layout.elements.length,
          );
          expect(read.edges).toHaveLength(layout.relationships.length);
          expect({ view: view.id, problems: boxDiagramProblems(read, CROSSABLE) }).toEqual({
            view: view.id,
            problems: [],
          });
        }
      },
      SLOW,
    );
  }
});

// Route through, not around: a line that went round a whole boundary instead of across it is
// longer than half again its ends' distance plus 200 units (a box's width and the margins: a
// turn round one box on the way). Before boundaries were groupings, the generated 60-, 100- and
// 150-element architectures had 3, 6 and 12 such lines (docs/benchmarks.md).
describe("large architectures route lines through boundaries, not around them", () => {
  for (const elements of [60, 100, 150]) {
    it(
      `generated ${elements} elements: no line longer than 1.5 × its ends' distance + 200, drawn within 1:2.5`,
      () => {
        const layout = layoutArchitecture(valid(generateArchitecture({ elements })));
        const long = longWayRound(layout.relationships);
        expect(long).toEqual([]);
        const ratio = layout.width / layout.height;
        expect(ratio).toBeLessThanOrEqual(2.5);
        expect(ratio).toBeGreaterThanOrEqual(1 / 2.5);
      },
      SLOW,
    );
  }
});

describe("every zoom level keeps the promises too", () => {
  it(
    "a generated 30-element architecture, one view per boundary, right and down",
    () => {
      const d = generateArchitecture({ elements: 30, seed: 3 });
      const { boundaries } = walkDiagram(d);
      d.views = boundaries.map((b, i) => ({
        id: `v${i}`,
        title: b.boundary.label,
        expand: [b.boundary.id],
      }));
      for (const direction of ["right", "down"] as const) {
        d.meta.direction = direction;
        for (const v of d.views) {
          const svg = type.render(d, layoutArchitecture(d, v.id));
          expect({
            direction,
            view: v.id,
            problems: boxDiagramProblems(readBoxDiagram(svg), CROSSABLE),
          }).toEqual({ direction, view: v.id, problems: [] });
        }
      }
    },
    SLOW,
  );
});

describe("architecture views", () => {
  const d = load("orderline-architecture");
  const ids = (layout: ReturnType<typeof type.layout>) =>
    "elements" in layout ? layout.elements.map((e) => e.id).sort() : [];

  it("the context view closes every boundary and joins the relationships onto it", () => {
    const layout = layoutArchitecture(d, "context");
    expect(layout.boundaries).toEqual([]);
    expect(ids(layout)).toEqual(["developer", "orderline", "partner", "tenant-user"]);
    const partner = layout.relationships.filter((r) => r.from === "partner");
    // Two relationships to two gateway instances are one line to the closed system.
    expect(partner).toHaveLength(1);
    expect(partner[0]).toMatchObject({ to: "orderline", count: 2 });
    expect(partner[0]?.label?.lines.join(" ")).toContain("(+1 more)");
    expect(layout.elements.find((e) => e.id === "orderline")?.hidden).toBe(7);
  });

  it("a view naming a boundary opens it and those around it, and closes the rest", () => {
    const layout = layoutArchitecture(d, "gateway");
    expect(layout.boundaries.map((b) => b.id)).toEqual(["orderline", "gateway-cluster", "data"]);
    expect(ids(layout)).toContain("gateway-1");
    expect(ids(layout)).toContain("packages");
    expect(ids(layout)).not.toContain("i18n");
    // Relationships inside one closed box are not drawn; into it they end on it.
    expect(layout.relationships.find((r) => r.id === "console-i18n")?.to).toBe("packages");
  });

  it("without views, one view opens everything", () => {
    const { views: _views, ...rest } = d;
    const all = rest as ArchitectureDiagram;
    expect(type.views?.(all).map((v) => v.id)).toEqual(["all"]);
    expect(layoutArchitecture(all).boundaries).toHaveLength(4);
  });

  it("draws each relationship kind distinctly and names them in the legend", () => {
    const svg = type.render(starter, layoutArchitecture(starter, "containers"));
    expect(svg).toMatch(/class="edge edge-main"[^>]*|data-kind="sync"/);
    for (const kind of ["sync", "async", "data"]) {
      expect(svg).toContain(`data-kind="${kind}"`);
    }
    expect(svg).toContain("Asynchronous message");
    expect(svg).toContain('stroke-dasharray="6 4"');
  });

  it("an unknown view is an error naming the views there are", () => {
    expect(() => layoutArchitecture(d, "nope")).toThrow(/context, containers, gateway, all/);
  });
});

// Golden SVGs: test/testdata/<case>/exp.<view>.svg, refreshed with `UPDATE_GOLDEN=1 npx vitest
// run --project diagrams architecture-render` after an intended change, and looked at as PNG.
describe("golden architecture SVGs", () => {
  const d = load("orderline-architecture");
  for (const view of type.views?.(d) ?? []) {
    it(`orderline-architecture, view ${view.id}`, () => {
      golden(
        "orderline-architecture",
        `exp.${view.id}.svg`,
        type.render(d, layoutArchitecture(d, view.id)),
      );
    });
  }
  for (const preset of VISUAL_PRESETS) {
    it(`orderline-architecture, view containers, preset ${preset}`, () => {
      golden(
        "orderline-architecture",
        `exp.containers.${preset}.svg`,
        type.render(d, layoutArchitecture(d, "containers"), { preset, quality: "standard" }),
      );
    });
  }
  for (const view of type.views?.(starter) ?? []) {
    it(`starter, view ${view.id}`, () => {
      golden(
        "architecture-starter",
        `exp.${view.id}.svg`,
        type.render(starter, layoutArchitecture(starter, view.id)),
      );
    });
  }
});
