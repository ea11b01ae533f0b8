import { describe, expect, it } from "vitest";
import { exportDiagram } from "../src/export/index.js";
import { layoutDiagram } from "../src/types/workflow/layout/index.js";
import type { WorkflowDiagram } from "../src/types/workflow/model.js";
import { renderCases } from "./support/cases.js";

const example = renderCases().find((c) => c.name === "partner-order-flow")
  ?.diagram as WorkflowDiagram;

/** Width and height from a PNG's IHDR chunk, after checking the signature and chunk layout. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(png.readUInt32BE(8)).toBe(13);
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  // Walk every chunk to the IEND: a truncated or corrupt file fails here.
  let offset = 8;
  let last = "";
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    last = png.subarray(offset + 4, offset + 8).toString("latin1");
    offset += 12 + length;
  }
  expect(offset).toBe(png.length);
  expect(last).toBe("IEND");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Checks a PDF's structure (header, xref offsets, trailer) and returns its page MediaBoxes. */
function pdfPages(pdf: Buffer): number[][] {
  const text = pdf.toString("latin1");
  expect(text.startsWith("%PDF-1.")).toBe(true);
  expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 4)).toBe("xref");
  const table = /xref\s+0 (\d+)\s+([\s\S]*?)trailer/.exec(text.slice(startxref));
  const count = Number(table?.[1]);
  const entries = (table?.[2] ?? "").trim().split(/\s*\n\s*/);
  expect(entries).toHaveLength(count);
  entries.forEach((entry, id) => {
    const [offset, , kind] = entry.split(" ");
    if (kind === "n") expect(text.slice(Number(offset)).startsWith(`${id} 0 obj`)).toBe(true);
  });
  expect(text).toMatch(/trailer\s*<<[\s\S]*\/Root \d+ 0 R/);
  return [...text.matchAll(/\/MediaBox \[([^\]]+)\]/g)].map((m) =>
    (m[1] ?? "").trim().split(/\s+/).map(Number),
  );
}

describe("PNG", () => {
  it("is a well-formed PNG the drawing's size, and scale 2 doubles it", async () => {
    const layout = layoutDiagram(example);
    const one = pngSize((await exportDiagram(example, "png")) as Buffer);
    expect(one).toEqual({ width: Math.round(layout.width), height: Math.round(layout.height) });
    const two = pngSize((await exportDiagram(example, "png", { scale: 2 })) as Buffer);
    expect(two).toEqual({
      width: Math.round(layout.width * 2),
      height: Math.round(layout.height * 2),
    });
  });

  it("draws the same pixels every time (bundled font only, no system fonts)", async () => {
    const a = (await exportDiagram(example, "png")) as Buffer;
    const b = (await exportDiagram(example, "png")) as Buffer;
    expect(a.equals(b)).toBe(true);
  });
});

describe("PDF", () => {
  it("is a well-formed one-page vector PDF the drawing's size, with the font embedded", async () => {
    const layout = layoutDiagram(example);
    const pdf = (await exportDiagram(example, "pdf")) as Buffer;
    const pages = pdfPages(pdf);
    expect(pages).toEqual([[0, 0, layout.width, layout.height]]);
    const text = pdf.toString("latin1");
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+Inter-Regular/);
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+Inter-SemiBold/);
    expect(text).toContain("/FontFile2");
    expect(text).not.toContain("/Subtype /Image");
  });
});

describe("PDF reproducibility", () => {
  it("is byte-identical for the same input and creation date (SOURCE_DATE_EPOCH)", async () => {
    const saved = process.env.SOURCE_DATE_EPOCH;
    process.env.SOURCE_DATE_EPOCH = "1700000000";
    try {
      const a = (await exportDiagram(example, "pdf")) as Buffer;
      const b = (await exportDiagram(example, "pdf")) as Buffer;
      expect(a.equals(b)).toBe(true);
      process.env.SOURCE_DATE_EPOCH = "1800000000";
      const c = (await exportDiagram(example, "pdf")) as Buffer;
      expect(c.equals(a)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
  });
});

describe("HTML", () => {
  it("is self-contained and carries the trace along mainPath, the guided views and the cards", async () => {
    const html = (await exportDiagram(example, "html")) as string;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain('<button type="button" id="trace"');
    expect(html.match(/data-view="\d+"/g)).toHaveLength(example.meta.views?.length ?? 0);
    const data = JSON.parse(
      /<script type="application\/json" id="diagram-data">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}",
    );
    const steps = data.trace as { kind: string; id: string }[];
    expect(steps.filter((s) => s.kind === "node").map((s) => s.id)).toEqual(example.mainPath);
    // Between consecutive mainPath nodes, the edge that joins them.
    const layout = layoutDiagram(example);
    steps.forEach((s, i) => {
      if (s.kind !== "edge") return;
      const edge = layout.edges.find((e) => e.id === s.id);
      expect([edge?.edge.from, edge?.edge.to]).toEqual([steps[i - 1]?.id, steps[i + 1]?.id]);
    });
    expect(steps.filter((s) => s.kind === "edge")).toHaveLength(
      (example.mainPath?.length ?? 1) - 1,
    );
    expect(data.autoplay).toBe(true);
    expect(Object.keys(data.cards)).toEqual(Object.keys(example.cards ?? {}));
    expect(html).toContain("getPointAtLength");
  });

  it("keeps script-breaking text inert", async () => {
    const d = structuredClone(example);
    d.meta.title = "</script><script>alert(1)</script>";
    d.cards = { login: { body: ["</script><b>x</b>"] } };
    const html = (await exportDiagram(d, "html")) as string;
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain("\\u003c/script>\\u003cb>x\\u003c/b>");
  });

  it("has no trace button without a mainPath, and takes the type's button words", async () => {
    const d = structuredClone(example);
    delete d.mainPath;
    const html = (await exportDiagram(d, "html")) as string;
    expect(html).not.toContain('id="trace"');
    expect(html).toContain('"trace":[]');
    expect(await exportDiagram(example, "html")).toContain("▶ Trace main path</button>");
  });

  it("does not autoplay when meta.animation is none", async () => {
    const d = structuredClone(example);
    d.meta.animation = "none";
    const html = (await exportDiagram(d, "html")) as string;
    expect(html).toContain('"autoplay":false');
  });
});
