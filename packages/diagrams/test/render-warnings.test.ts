import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Problem } from "../src/core/validate/problem.js";
import { layoutDiagram, layoutWarnings } from "../src/types/workflow/layout/index.js";
import type { WorkflowDiagram } from "../src/types/workflow/model.js";
import { renderCases } from "./support/cases.js";
import { runCli } from "./support/cli.js";
import { denseWorkflow, variedWorkflow } from "./support/dense.js";

const dir = mkdtempSync(join(tmpdir(), "diagrams-warnings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args, dir);

const LONG =
  "A node label far too long to fit in three lines of a node box, so the renderer has to cut it short somewhere";

function diagram(edges: WorkflowDiagram["edges"], label = "A"): WorkflowDiagram {
  return {
    schema_version: 1,
    diagram_type: "workflow",
    meta: { title: "Warnings" },
    lanes: [
      { id: "top", label: "Top" },
      { id: "bottom", label: "Bottom" },
    ],
    nodes: [
      { id: "a", lane: "top", col: 0, type: "service", label },
      { id: "b", lane: "top", col: 1, type: "service", label: "B" },
      { id: "c", lane: "top", col: 2, type: "service", label: "C" },
      { id: "d", lane: "bottom", col: 2, type: "service", label: "D" },
    ],
    edges,
  };
}

const rules = (d: WorkflowDiagram) => layoutDiagram(d).warnings.map((w) => `${w.rule} ${w.path}`);

describe("what the drawing cannot honour is reported as a warning", () => {
  it("nothing for a description the drawing honours", () => {
    expect(rules(diagram([{ from: "a", to: "b", route: "straight" }]))).toEqual([]);
  });

  it("a straight route between nodes that do not face each other, or across a node", () => {
    expect(rules(diagram([{ from: "a", to: "d", route: "straight" }]))).toEqual([
      "render/route /edges/0/route",
    ]);
    expect(rules(diagram([{ from: "a", to: "c", route: "straight" }]))).toEqual([
      "render/route /edges/0/route",
    ]);
  });

  it("a channel behind the edge's port", () => {
    expect(rules(diagram([{ from: "a", to: "d", channelX: 10 }]))).toEqual([
      "render/channel /edges/0/channelX",
    ]);
  });

  it("text cut short with an ellipsis, on a node and on an edge label", () => {
    const d = diagram([{ from: "a", to: "b", label: `${LONG} ${LONG}` }], LONG);
    expect(rules(d)).toEqual(["render/text-cut /nodes/0/label", "render/text-cut /edges/0/label"]);
  });
});

describe("validate finds the warnings without drawing, the same ones render finds", () => {
  const cases = [
    ...renderCases(),
    ...[1, 2, 3].map((seed) => ({ name: `dense-${seed}`, diagram: denseWorkflow(seed) })),
    // Route hints between ends that do not suit them are what gives warnings.
    ...[1, 2, 3].map((seed) => ({ name: `varied-${seed}`, diagram: variedWorkflow(seed) })),
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(layoutWarnings(c.diagram)).toEqual(layoutDiagram(c.diagram).warnings);
    });
  }
  it("a long title cut short, in a grid its routes widen", () => {
    const title = Array.from({ length: 6 }, () => LONG).join(" ");
    const d = { ...denseWorkflow(2), meta: { title } };
    const warnings = layoutWarnings(d);
    expect(warnings.map((w) => w.path)).toContain("/meta/title");
    expect(warnings).toEqual(layoutDiagram(d).warnings);
  });
});

describe("validate warns of a text cut short at the same length as render, for every kind of text", () => {
  // Columns at their least width (narrow nodes), so each text has the least room it can get.
  const base = (): WorkflowDiagram => ({
    schema_version: 1,
    diagram_type: "workflow",
    meta: { title: "T" },
    lanes: [
      { id: "top", label: "Top" },
      { id: "bottom", label: "Bottom" },
    ],
    phases: [{ id: "p", label: "P", fromCol: 0, toCol: 0 }],
    groups: [{ id: "g", label: "G", lane: "bottom", fromCol: 1, toCol: 2 }],
    nodes: [
      { id: "a", lane: "top", col: 0, type: "service", label: "A", width: 100 },
      { id: "b", lane: "top", col: 1, type: "service", label: "B", width: 100 },
      { id: "c", lane: "bottom", col: 2, type: "service", label: "C", width: 100 },
    ],
    edges: [
      { from: "a", to: "b" },
      { from: "b", to: "c" },
    ],
  });
  const kinds: [string, (d: WorkflowDiagram, text: string) => void][] = [
    ["title", (d, t) => Object.assign(d.meta, { title: t })],
    ["subtitle", (d, t) => Object.assign(d.meta, { subtitle: t })],
    ["lane label", (d, t) => Object.assign(d.lanes[0] ?? {}, { label: t })],
    ["phase label", (d, t) => Object.assign(d.phases?.[0] ?? {}, { label: t })],
    ["group label", (d, t) => Object.assign(d.groups?.[0] ?? {}, { label: t })],
    ["node label", (d, t) => Object.assign(d.nodes[0] ?? {}, { label: t })],
    [
      "node label beside an icon",
      (d, t) => Object.assign(d.nodes[0] ?? {}, { label: t, width: 180 }),
    ],
    ["node sublabel", (d, t) => Object.assign(d.nodes[1] ?? {}, { sublabel: t })],
    ["node tag", (d, t) => Object.assign(d.nodes[2] ?? {}, { tag: t })],
    ["edge label", (d, t) => Object.assign(d.edges[0] ?? {}, { label: t })],
  ];
  const text = Array.from(
    { length: 8 },
    () => "Reserve stock, then confirm the partner order",
  ).join(" ");
  it.each(kinds)("%s", (_, set) => {
    let cutAt = 0;
    for (let n = 1; n <= text.length && cutAt === 0; n++) {
      const d = base();
      set(d, text.slice(0, n));
      const warnings = layoutDiagram(d).warnings;
      expect(layoutWarnings(d), `${n} characters`).toEqual(warnings);
      if (warnings.some((w) => w.rule === "render/text-cut")) cutAt = n;
    }
    // The text grew until it was cut: the warning itself was compared, not only its absence.
    expect(cutAt).toBeGreaterThan(1);
  });
});

describe("validate and render print warnings located like problems; --strict makes them errors", () => {
  const file = join(dir, "warned.json");
  writeFileSync(
    file,
    JSON.stringify(diagram([{ id: "ad", from: "a", to: "d", route: "straight" }]), null, 2),
  );

  it("validate: exit 0 with the warning line, exit 1 under --strict", async () => {
    const r = await run(["validate", "warned.json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^warned\.json:\d+:\d+ {2}\/edges\/0\/route {2}warning: route "straight" .*\[render\/route\]\n/,
    );
    expect(r.stdout).toContain("warned.json: valid (1 warning)\n");
    const strict = await run(["validate", "--strict", "warned.json"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).not.toContain(": valid");
    const json = await run(["validate", "--format", "json", "warned.json"]);
    expect(json.code).toBe(0);
    const problems = JSON.parse(json.stdout) as Problem[];
    expect(problems).toMatchObject([
      { file: "warned.json", path: "/edges/0/route", rule: "render/route", severity: "warning" },
    ]);
    // The line points at the "route" value in the file.
    const line = readFileSync(file, "utf8").split("\n")[(problems[0]?.line ?? 0) - 1];
    expect(line).toContain('"route": "straight"');
  });

  it("render: writes the drawing and warns; under --strict writes nothing and exits 1", async () => {
    const r = await run(["render", "warned.json", "-o", "out.svg"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: route "straight" .*\[render\/route\]/);
    expect(existsSync(join(dir, "out.svg"))).toBe(true);
    const strict = await run(["render", "--strict", "warned.json", "-o", "strict.svg"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("[render/route]");
    expect(existsSync(join(dir, "strict.svg"))).toBe(false);
  });
});
