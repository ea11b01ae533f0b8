import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateDataFlow } from "../bench/data-flow-workload.mjs";
import type { RenderOptions } from "../src/core/diagram-type.js";
import { VISUAL_PRESETS } from "../src/core/model.js";
import { type } from "../src/types/data-flow/index.js";
import type { DataFlowDiagram } from "../src/types/data-flow/model.js";
import { boundariesReport } from "../src/types/data-flow/report-boundaries.js";
import { starter } from "../src/types/data-flow/starter.js";
import { validateAs } from "../src/validate/as-type.js";
import { boxDiagramProblems, readBoxDiagram } from "./support/box-diagram-check.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { runCli } from "./support/cli.js";
import { golden } from "./support/golden.js";
import { readSvg } from "./support/svg-geometry.js";

// Golden SVGs: test/testdata/<case>/exp*.svg. After an intended change to the drawing, refresh
// them with `UPDATE_GOLDEN=1 npx vitest run --project diagrams data-flow-render` and look at
// them (render to PNG) before committing.
// Rendering is slow on a loaded machine; nothing here is timed.
const SLOW = 180_000;
const EXAMPLE = join(EXAMPLES_DIR, "signed-order-data-flow.json");

function load(file: string): DataFlowDiagram {
  const result = validateAs<DataFlowDiagram>(type, readFileSync(file, "utf8"), { file });
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.diagram;
}

async function render(d: DataFlowDiagram, options: RenderOptions = {}): Promise<string> {
  return type.render(d, await type.layout(d), options);
}

const down = (d: DataFlowDiagram): DataFlowDiagram => ({
  ...d,
  meta: { ...d.meta, direction: "down" },
});

const cases: [string, () => DataFlowDiagram][] = [
  ["signed order example", () => load(EXAMPLE)],
  ["signed order example, direction down", () => down(load(EXAMPLE))],
  ["starter", () => starter],
  ["starter, direction down", () => down(starter)],
  ["starter, direction left", () => ({ ...starter, meta: { ...starter.meta, direction: "left" } })],
  ["generated 60 elements", () => generateDataFlow({ elements: 60 })],
  [
    "generated 60 elements, direction down",
    () => down(generateDataFlow({ elements: 60, seed: 3 })),
  ],
  ["generated 150 elements", () => generateDataFlow({ elements: 150, seed: 11 })],
];

describe("data-flow geometry, read back from the SVG", () => {
  for (const [name, make] of cases) {
    it(
      name,
      async () => {
        const d = make();
        expect(validateAs(type, JSON.stringify(d)).problems).toEqual([]);
        const read = readBoxDiagram(await render(d));
        // The reader found what was drawn: every element and boundary, flow and label.
        const boundaries = d.boundaries ?? [];
        expect(read.elements.filter((e) => e.kind === "element")).toHaveLength(d.elements.length);
        expect(read.elements.filter((e) => e.kind === "boundary")).toHaveLength(boundaries.length);
        expect(read.edges).toHaveLength(d.flows.length);
        expect(read.labels.size).toBe(d.flows.length);
        expect(boxDiagramProblems(read)).toEqual([]);
      },
      SLOW,
    );
  }
});

describe("data-flow drawing", () => {
  it(
    "marks each crossing flow once per boundary it crosses, on that boundary's border",
    async () => {
      const d = load(EXAMPLE);
      const svg = await render(d);
      const read = readBoxDiagram(svg);
      const boxes = new Map(read.elements.map((e) => [e.id, e.box]));
      const rows = boundariesReport.rows(d) as { flow: string; out_of: string[]; into: string[] }[];
      expect(rows.length).toBeGreaterThan(0);
      const marks = readSvg(svg, ["edge"]).shapes.filter(
        (s) => s.class === "crossing-mark" && s.owner !== undefined,
      );
      for (const f of d.flows) {
        const row = rows.find((r) => r.flow === f.id);
        const mine = marks.filter((m) => m.owner?.id === f.id);
        const crossed = row ? [...row.out_of, ...row.into] : [];
        expect(mine).toHaveLength(crossed.length);
        expect(svg).toContain(
          `class="edge edge-main flow flow-${f.classification}${crossed.length > 0 ? " crossing" : ""}" data-id="${f.id}"`,
        );
      }
      // Each mark sits on the border of the boundary it names.
      const on = (v: number, a: number) => Math.abs(v - a) < 0.6;
      const markRe =
        /<circle class="crossing-mark" data-boundary="([^"]+)" data-direction="(out|in)" cx="([\d.]+)" cy="([\d.]+)"/g;
      const found = [...svg.matchAll(markRe)];
      expect(found).toHaveLength(marks.length);
      for (const [, boundary, , cx, cy] of found) {
        const b = boxes.get(boundary as string);
        if (!b) throw new Error(`no boundary ${boundary}`);
        const x = Number(cx);
        const y = Number(cy);
        const onSide =
          ((on(x, b.x) || on(x, b.x + b.width)) && y >= b.y && y <= b.y + b.height) ||
          ((on(y, b.y) || on(y, b.y + b.height)) && x >= b.x && x <= b.x + b.width);
        expect(onSide, `${boundary} mark at ${x},${y}`).toBe(true);
      }
    },
    SLOW,
  );

  it(
    "says each flow's classification in words, in the label and the accessible name",
    async () => {
      const d = load(EXAMPLE);
      const svg = await render(d);
      const texts = readSvg(svg, ["edge-label"]).texts.filter(
        (t) => t.owner?.kind === "edge-label",
      );
      for (const f of d.flows) {
        const words = texts.filter((t) => t.owner?.id === f.id).flatMap((t) => t.lines);
        expect(words).toContain([f.protocol, f.classification].filter(Boolean).join(" · "));
      }
      expect(svg).toContain(
        'aria-label="personal data flow from Partner system to Signature check: Signed sales order over HTTPS; crosses out of Partner network, out of Internet, into Orderline gateway"',
      );
      expect(svg).toContain('aria-label="trust boundary Partner network"');
      expect(svg).toContain('aria-label="data store PostgreSQL: partners, keys, orders"');
    },
    SLOW,
  );

  it(
    "draws entities square, processes rounded and stores open at the right",
    async () => {
      const svg = await render(starter);
      expect(svg).toMatch(/<g class="node element element-entity"[^>]*><rect [^>]*rx="2"/);
      expect(svg).toMatch(/<g class="node element element-process"[^>]*><rect [^>]*rx="2[02]"/);
      // A store: its background, then one line from the top right round the left to the bottom right.
      expect(svg).toMatch(
        /<g class="node element element-store"[^>]*><rect [^>]*\/><path d="M([\d.]+) ([\d.]+)H[\d.]+V[\d.]+H\1"/,
      );
    },
    SLOW,
  );

  it(
    "is byte-identical on every run, every coordinate with at most two decimals",
    async () => {
      const d = generateDataFlow({ elements: 60 });
      const svg = await render(d);
      expect(await render(structuredClone(d))).toBe(svg);
      expect(svg.match(/\d+\.\d{3,}/g) ?? []).toEqual([]);
    },
    SLOW,
  );

  it(
    "the legend names what is used; meta.legend hidden leaves it out",
    async () => {
      const svg = await render(starter);
      for (const words of [
        "External entity",
        "Process",
        "Data store",
        "Trust boundary",
        "Flow crossing a trust boundary",
        "Public data",
        "Personal data",
      ]) {
        expect(svg).toContain(`>${words}</tspan>`);
      }
      const hidden = await render({
        ...starter,
        meta: { ...starter.meta, legend: { mode: "hidden" } },
      });
      expect(hidden).not.toContain('class="legend"');
    },
    SLOW,
  );

  it(
    "the HTML trace plays the flows in document order",
    async () => {
      const d = load(EXAMPLE);
      const steps = type.interaction?.(d, await type.layout(d)).trace ?? [];
      expect(steps.slice(0, 5).map((s) => `${s.kind}:${s.id}`)).toEqual([
        "node:partner-staff",
        "edge:order-entry",
        "node:partner-system",
        "edge:private-key",
        "node:partner-system",
      ]);
      expect(steps.filter((s) => s.kind === "edge")).toHaveLength(d.flows.length);
    },
    SLOW,
  );
});

describe("golden data-flow SVGs", () => {
  it(
    "signed order example, starter, every preset and the showcase profile",
    async () => {
      const d = load(EXAMPLE);
      const layout = await type.layout(d);
      golden("signed-order-data-flow", "exp.svg", type.render(d, layout));
      for (const preset of VISUAL_PRESETS) {
        golden("signed-order-data-flow", `exp.${preset}.svg`, type.render(d, layout, { preset }));
      }
      golden(
        "signed-order-data-flow",
        "exp.showcase.svg",
        type.render(d, layout, { preset: "signal-flow", quality: "showcase" }),
      );
      golden("data-flow-starter", "exp.svg", await render(starter));
    },
    SLOW,
  );
});

describe("orderline-diagrams on a data flow", () => {
  const run = runCli;

  it(
    "render writes SVG, PNG, PDF and HTML, in every preset",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
      for (const ext of ["svg", "png", "pdf", "html"]) {
        const r = await run(["render", EXAMPLE, "-o", `out.${ext}`], dir);
        expect(r.code, r.stderr).toBe(0);
      }
      expect(readFileSync(join(dir, "out.svg"), "utf8")).toBe(await render(load(EXAMPLE)));
      expect(readFileSync(join(dir, "out.png")).subarray(1, 4).toString()).toBe("PNG");
      expect(readFileSync(join(dir, "out.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
      const html = readFileSync(join(dir, "out.html"), "utf8");
      expect(html).toContain("Play the data flows");
      expect(html).toContain("Signed order");
      for (const preset of VISUAL_PRESETS) {
        const r = await run(["render", EXAMPLE, "-o", `${preset}.svg`, "--preset", preset], dir);
        expect(r.code, r.stderr).toBe(0);
        expect(readFileSync(join(dir, `${preset}.svg`), "utf8")).toContain(
          `data-preset="${preset}"`,
        );
      }
    },
    SLOW,
  );

  it("validate --report boundaries lists every crossing flow, as text and as JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
    const text = await run(["validate", "--report", "boundaries", EXAMPLE], dir);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toBe(`${EXAMPLE}: valid`);
    expect(lines[1]).toBe(`${EXAMPLE}: 8 flows cross a trust boundary:`);
    expect(lines).toContain(
      '  signed-order  partner-system → signature-check  "Signed sales order" (HTTPS, personal)  out of partner-network, internet; into gateway',
    );
    expect(text.stdout).not.toContain("verified-order");

    const json = await run(
      ["validate", "--report", "boundaries", "--format", "json", EXAMPLE],
      dir,
    );
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as {
      problems: unknown[];
      reports: { file: string; report: string; rows: Record<string, unknown>[] }[];
    };
    expect(out.problems).toEqual([]);
    expect(out.reports).toHaveLength(1);
    expect(out.reports[0]?.rows).toHaveLength(8);
    expect(out.reports[0]?.rows).toContainEqual({
      flow: "token",
      from: "login",
      to: "partner-system",
      label: "JWT access token",
      protocol: "HTTPS",
      classification: "confidential",
      out_of: ["gateway"],
      into: ["internet", "partner-network"],
    });
  });

  it("validate --report with a report the type does not offer is a usage error naming those it does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
    const r = await run(["validate", "--report", "threats", EXAMPLE], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no report "threats"; data-flow diagrams offer: boundaries (');
    const w = await run(
      ["validate", "--report", "boundaries", join(EXAMPLES_DIR, "checkout-flow.json")],
      dir,
    );
    expect(w.code).toBe(2);
    expect(w.stderr).toContain("workflow diagrams offer no reports");
  });

  it("validate reports a data-flow rule with file:line:col and rule id", async () => {
    const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
    const d = structuredClone(starter);
    d.flows.push({
      from: "customer",
      to: "accounts",
      label: "Profile",
      classification: "personal",
    });
    writeFileSync(join(dir, "bad.json"), JSON.stringify(d, null, 2));
    const r = await run(["validate", "bad.json"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^bad\.json:\d+:\d+ {2}\/flows\/6 {2}flow from external entity "customer" to data store "accounts" has no process at either end.*\[flow\/no-process\]$/m,
    );
  });

  it("schema --type data-flow prints the shipped schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
    const r = await run(["schema", "--type", "data-flow"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(type.schema.text());
  });

  it("init --type data-flow writes the starter, which validates", async () => {
    const dir = mkdtempSync(join(tmpdir(), "data-flow-cli-"));
    const r = await run(["init", "--type", "data-flow", "flow.json"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "flow.json"), "utf8"))).toEqual(starter);
    const v = await run(["validate", "flow.json"], dir);
    expect(v.code, v.stdout).toBe(0);
  });
});
