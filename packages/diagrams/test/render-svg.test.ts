import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../bench/workload.mjs";
import { num } from "../src/core/svg/xml.js";
import { measureText, wrapText } from "../src/core/text/measure.js";
import type { WorkflowDiagram } from "../src/types/workflow/model.js";
import { VISUAL_PRESETS } from "../src/types/workflow/model.js";
import { renderSvg } from "../src/types/workflow/render.js";
import { renderCases } from "./support/cases.js";

const cases = renderCases();
const example = (cases.find((c) => c.name === "partner-order-flow") ?? cases[0])
  ?.diagram as WorkflowDiagram;

describe("renderSvg", () => {
  it("renders the same bytes twice, with nothing machine- or time-dependent in them", () => {
    for (const c of cases) expect(renderSvg(c.diagram)).toBe(renderSvg(structuredClone(c.diagram)));
    const big = generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 });
    const svg = renderSvg(big);
    expect(svg).toBe(renderSvg(generateWorkflow({ lanes: 20, cols: 6, nodes: 120, edges: 200 })));
    // Numbers carry at most two decimals.
    expect(svg).not.toMatch(/\d\.\d{3,}/);
    expect(svg).not.toMatch(/NaN|Infinity|undefined/);
  });

  it("is accessible: role img, title and desc referenced, nodes and edges labelled", () => {
    const svg = renderSvg(example);
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-labelledby="owd-title owd-desc"/);
    expect(svg).toContain(`<title id="owd-title">${example.meta.title}</title>`);
    expect(svg).toMatch(/<desc id="owd-desc">[^<]*Main path: /);
    for (const node of example.nodes) {
      expect(svg).toMatch(
        new RegExp(`<g id="owd-node-${node.id}"[^>]*role="img" aria-label="${node.type}: `),
      );
    }
    expect(svg.match(/class="edge edge-/g)).toHaveLength(example.edges.length);
    expect(svg).toMatch(/role="img" aria-label="main flow from /);
  });

  it("draws each role distinctly and every edge variant", () => {
    const d: WorkflowDiagram = {
      schema_version: 1,
      diagram_type: "workflow",
      meta: { title: "roles" },
      lanes: [{ id: "l", label: "L" }],
      nodes: [
        { id: "a", lane: "l", col: 0, type: "start", label: "A" },
        { id: "b", lane: "l", col: 1, type: "end", label: "B" },
      ],
      edges: (["main", "branch", "async", "return", "error"] as const).map((role) => ({
        id: role,
        from: "a",
        to: "b",
        role,
      })),
    };
    const svg = renderSvg(d);
    const styleOf = (role: string) => {
      const m = new RegExp(`id="owd-edge-${role}"[^>]*>(<path[^>]*>)`).exec(svg);
      return (m?.[1] ?? "").replace(/ d="[^"]*"/, "");
    };
    const styles = ["main", "branch", "async", "return", "error"].map(styleOf);
    expect(new Set(styles).size).toBe(5);
  });

  it("the four presets are different looks of the same layout; --preset overrides meta", () => {
    const svgs = VISUAL_PRESETS.map((preset) => renderSvg(example, { preset }));
    expect(new Set(svgs).size).toBe(4);
    const backgrounds = svgs.map(
      (s) => /<rect width="[\d.]+" height="[\d.]+" fill="(#[0-9a-f]{6})"/.exec(s)?.[1],
    );
    expect(new Set(backgrounds).size).toBe(4);
    // Geometry is the layout's: every preset puts the nodes' labels at the same place.
    const anchors = svgs.map((s) => (s.match(/<tspan x="[\d.]+" y="[\d.]+"/g) ?? []).join());
    expect(new Set(anchors).size).toBe(1);
    expect(svgs[2]).toContain('data-preset="blueprint"');
  });

  it("showcase adds shadows and gradients; standard has none", () => {
    const standard = renderSvg({
      ...example,
      meta: { ...example.meta, quality_profile: "standard" },
    });
    const showcase = renderSvg({
      ...example,
      meta: { ...example.meta, quality_profile: "showcase" },
    });
    expect(standard).not.toContain("feDropShadow");
    expect(showcase).toContain("feDropShadow");
    expect(showcase).toContain("linearGradient");
  });

  it("escapes text and shows label, sublabel, tag and brand", () => {
    const d: WorkflowDiagram = {
      schema_version: 1,
      diagram_type: "workflow",
      meta: { title: 'A <b> & "c"', legend: { mode: "hidden" } },
      lanes: [{ id: "l", label: "L" }],
      nodes: [
        {
          id: "a",
          lane: "l",
          col: 0,
          type: "database",
          label: "Orders & <stock>",
          sublabel: "sub",
          tag: "beta",
          brand: { name: "Postgre SQL" },
        },
      ],
      edges: [],
    };
    const svg = renderSvg(d);
    expect(svg).toContain("A &lt;b&gt; &amp; &quot;c&quot;");
    expect(svg).toContain("Orders &amp; &lt;stock&gt;");
    expect(svg).toContain(">sub</tspan>");
    expect(svg).toContain(">beta</tspan>");
    expect(svg).toContain(">PS</text>");
    expect(svg).not.toContain('class="legend"');
  });

  it("legend: auto lists the categories used, manual lists its entries", () => {
    const svg = renderSvg(example);
    expect(svg).toContain(">Data store</tspan>");
    expect(svg).not.toContain(">Frontend</tspan>");
    const manual = renderSvg({
      ...example,
      meta: {
        ...example.meta,
        legend: {
          mode: "manual",
          entries: { cloud: { label: "Our cloud", description: "hosted" } },
        },
      },
    });
    expect(manual).toContain(">Our cloud — hosted</tspan>");
    expect(manual).not.toContain(">Data store</tspan>");
    // Auto mode also explains the line styles drawn; manual lists only its entries.
    for (const flow of ["Main flow", "Branch", "Asynchronous", "Return", "Error"]) {
      expect(svg).toContain(`>${flow}</tspan>`);
    }
    expect(manual).not.toContain(">Main flow</tspan>");
  });
});

describe("built-in words", () => {
  it("follow meta.locale's language, English for languages without their own set", () => {
    const german = renderSvg({ ...example, meta: { ...example.meta, locale: "de-AT" } });
    expect(german).toContain(">Legende</tspan>");
    expect(german).toContain(">Datenspeicher</tspan>");
    expect(german).toContain(">Hauptablauf</tspan>");
    const finnish = renderSvg({ ...example, meta: { ...example.meta, locale: "fi" } });
    expect(finnish).toContain(">Legend</tspan>");
    expect(finnish).toContain(">Main flow</tspan>");
  });
});

describe("text measurement", () => {
  it("uses the font's advance widths: wide letters measure wider than narrow ones", () => {
    expect(measureText("WWWW", 13)).toBeGreaterThan(measureText("iiii", 13) * 2);
    expect(measureText("Order", 13, "semibold")).toBeGreaterThan(
      measureText("Order", 13, "regular"),
    );
    expect(measureText("abc", 26)).toBeCloseTo(measureText("abc", 13) * 2, 6);
  });

  it("wraps long labels within the width and breaks words longer than a line", () => {
    const lines = wrapText(
      "Create the partner order exactly once with an idempotency key",
      13,
      110,
      "regular",
      10,
    );
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(measureText(line, 13)).toBeLessThanOrEqual(110);
    const broken = wrapText("SHA256withRSA(client_id|timestamp)", 11, 90, "regular", 10);
    expect(broken.join("")).toBe("SHA256withRSA(client_id|timestamp)");
    expect(wrapText("one two three four five six seven", 13, 40, "regular", 2)[1]).toMatch(/…$/);
  });

  it("wraps at spaces first, then at a break opportunity inside a long token, by characters last", () => {
    // 112 units: the text width of a default node (168 wide, with its icon).
    expect(wrapText("POST /api/v1/sales-orders", 13, 112, "semibold", 3)).toEqual([
      "POST /api/v1/",
      "sales-orders",
    ]);
    expect(wrapText("SHA256withRSA(client_id|timestamp)", 11, 112, "regular", 3)).toEqual([
      "SHA256withRSA",
      "(client_id|timestamp)",
    ]);
    expect(wrapText("SHA256withRSA(client_id|timestamp)", 11, 90, "regular", 3)).toEqual([
      "SHA256withRSA",
      "(client_id|",
      "timestamp)",
    ]);
    expect(wrapText("GET /tenants/{id}/vocabulary", 13, 112, "semibold", 3)).toEqual([
      "GET /tenants/",
      "{id}/vocabulary",
    ]);
    // A token that fits a line of its own moves to the next line whole.
    expect(wrapText("POST /api/v1/auth/login", 13, 112, "semibold", 3)).toEqual([
      "POST",
      "/api/v1/auth/login",
    ]);
    // No break opportunity: cut between characters, within the width, nothing lost.
    const cut = wrapText("Donaudampfschifffahrtsgesellschaft", 13, 80, "regular", 5);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.join("")).toBe("Donaudampfschifffahrtsgesellschaft");
    for (const line of cut) expect(measureText(line, 13)).toBeLessThanOrEqual(80);
  });
});

describe("numbers in the SVG", () => {
  it("reads as the number rounded to hundredths, printed as JavaScript prints it", () => {
    // The reference: what num printed before it wrote hundredths itself.
    const reference = (n: number) => {
      const r = Math.round(n * 100) / 100;
      return r === 0 ? "0" : String(r);
    };
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const values = [0, -0, 0.004, -0.004, 0.005, -0.005, 0.1, 0.07, -0.07, 1.5, -1.05, 99.999];
    values.push(12345.675, 1e12 + 0.37, 1e14 + 0.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY);
    for (let i = 0; i < 20000; i++) {
      const scale = 10 ** Math.floor(rnd() * 7);
      values.push((rnd() - 0.5) * scale, Math.round((rnd() - 0.5) * scale * 100) / 100);
    }
    for (const v of values) expect(num(v), String(v)).toBe(reference(v));
  });
});
