import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { chooseFallbackFonts } from "../src/export/fonts/fallback.js";
import { renderPdf } from "../src/export/pdf.js";
import { renderPng } from "../src/export/png.js";
import { runCli } from "./support/cli.js";

// Labels as people write them in each script; their letters are drawn one to a cell below.
const SCRIPTS = {
  Japanese: "注文のライフサイクル下書き購入者",
  Arabic: "مراجعة الطلب قيد",
  Thai: "อนุมัติแล้วคำสั่งซื้อ",
  Devanagari: "अस्वीकृत स्टॉक में नहीं है",
} as const;

// A character no installed font has (plane 16's private use): drawn as the empty box.
const NO_FONT = "\u{10fffd}";
const CELL = 60;
// A bound only a hang reaches: drawing reads installed fonts of tens of megabytes.
const SLOW = 180_000;

/** What the sample draws one to a cell: letters alone, marks on the letter before them. */
function clusters(text: string): string[] {
  const out: string[] = [];
  for (const ch of text) {
    if (/\s/u.test(ch)) continue;
    if (/\p{M}/u.test(ch) && out.length > 0) out[out.length - 1] += ch;
    else out.push(ch);
  }
  return [...new Set(out)];
}

/** An SVG shaped like the renderers' output: one centred label per cell, cell 0 the empty box. */
function gridSvg(cells: string[]): { svg: string; width: number; height: number } {
  const width = CELL * cells.length;
  const height = CELL;
  const texts = cells.map(
    (text, i) =>
      `<text font-size="32" font-weight="600" fill="#111827" text-anchor="middle"><tspan x="${i * CELL + CELL / 2}" y="42">${text}</tspan></text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Inter, sans-serif"><rect width="${width}" height="${height}" fill="#ffffff"/>${texts.join("")}</svg>`;
  return { svg, width, height };
}

/** Grey levels (0 black … 255 white) of an 8-bit RGBA PNG, as resvg writes it. */
function pngGrey(png: Buffer): { width: number; grey: Uint8Array } {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25], png[28]]).toEqual([8, 6, 0]); // 8-bit RGBA, not interlaced
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString("latin1", at + 4, at + 8) === "IDAT") {
      chunks.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= 4 ? (rgba[y * stride + x - 4] as number) : 0;
      const b = y > 0 ? (rgba[(y - 1) * stride + x] as number) : 0;
      const c = x >= 4 && y > 0 ? (rgba[(y - 1) * stride + x - 4] as number) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter as number] as number;
      rgba[y * stride + x] = (v + add) & 0xff;
    }
  }
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4 + 1] as number;
  return { width, grey };
}

/** Grey levels of a PDF's first page at one pixel per point, drawn by poppler's pdftoppm. */
function pdfGrey(pdf: Buffer): { width: number; grey: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), "diagram-scripts-"));
  writeFileSync(join(dir, "grid.pdf"), pdf);
  execFileSync("pdftoppm", ["-r", "72", "-gray", "-singlefile", "grid.pdf", "grid"], { cwd: dir });
  const pgm = readFileSync(join(dir, "grid.pgm"));
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString("latin1", 0, 40));
  if (!header) throw new Error("pdftoppm wrote no 8-bit PGM");
  return { width: Number(header[1]), grey: new Uint8Array(pgm.subarray(header[0].length)) };
}

/** One cell's pixels, dark or not. */
function cell(image: { width: number; grey: Uint8Array }, index: number): boolean[] {
  const dark: boolean[] = [];
  for (let y = 0; y < CELL; y++) {
    for (let x = index * CELL; x < (index + 1) * CELL; x++) {
      dark.push((image.grey[y * image.width + x] as number) < 128);
    }
  }
  return dark;
}

function differing(a: boolean[], b: boolean[]): number {
  return a.reduce((n, v, i) => (v === b[i] ? n : n + 1), 0);
}

const FORMATS = {
  PNG: async (svg: string, _width: number, _height: number) =>
    pngGrey(await renderPng(svg, { onWarning: () => {} })),
  PDF: async (svg: string, width: number, height: number) =>
    pdfGrey(await renderPdf([{ svg, size: { width, height } }], { onWarning: () => {} })),
};

describe("labels in every script", { timeout: SLOW }, () => {
  it("every character of the samples has a font (the bundled one or an installed one)", async () => {
    const choice = await chooseFallbackFonts(Object.values(SCRIPTS), { locale: "ja" });
    expect(choice.uncovered).toEqual([]);
    // Japanese is drawn in a Japanese face where a CJK collection offers several.
    const han = choice.faces.find((f) => f.draws.has("注".codePointAt(0) as number));
    expect(han?.postscriptName ?? "").toMatch(/jp/i);
  });

  for (const [format, draw] of Object.entries(FORMATS)) {
    for (const [script, sample] of Object.entries(SCRIPTS)) {
      it(`${format}: no ${script} letter is drawn as the empty box`, async () => {
        const letters = clusters(sample);
        const { svg, width, height } = gridSvg([NO_FONT, ...letters]);
        const image = await draw(svg, width, height);
        const box = cell(image, 0);
        expect(box.filter(Boolean).length).toBeGreaterThan(40); // the reference box has ink
        letters.forEach((letter, i) => {
          const drawn = cell(image, i + 1);
          const ink = drawn.filter(Boolean).length;
          expect(ink, `${letter} has ink`).toBeGreaterThan(10);
          expect(differing(drawn, box), `${letter} differs from the empty box`).toBeGreaterThan(40);
        });
      });
    }
  }

  it("a character no font draws is named in a warning, in PNG and in PDF", async () => {
    const { svg, width, height } = gridSvg([`a${NO_FONT}注`]);
    const warnings: string[] = [];
    await renderPng(svg, { onWarning: (m) => warnings.push(m) });
    await renderPdf([{ svg, size: { width, height } }], { onWarning: (m) => warnings.push(m) });
    expect(warnings).toHaveLength(2);
    for (const w of warnings) {
      expect(w).toContain("U+10FFFD");
      expect(w).not.toContain("U+6CE8"); // 注 has a font
    }
  });
});

describe("render with labels in four scripts", { timeout: SLOW }, () => {
  const dir = mkdtempSync(join(tmpdir(), "diagram-scripts-cli-"));
  const description = (extra: string) => ({
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: "注文のライフサイクル", locale: "ja" },
    states: [
      { id: "start", kind: "initial" },
      { id: "draft", label: "下書き", sublabel: "購入者が編集できます" },
      { id: "review", label: "مراجعة الطلب" },
      { id: "accepted", label: "อนุมัติแล้ว" },
      { id: "rejected", label: `अस्वीकृत${extra}` },
    ],
    transitions: [
      { from: "start", to: "draft" },
      { from: "draft", to: "review", event: "提出する" },
      { from: "review", to: "accepted", event: "موافقة" },
      { from: "review", to: "rejected", event: "अस्वीकार" },
    ],
  });

  it("writes PNG and PDF with no warning when every character has a font", async () => {
    writeFileSync(join(dir, "scripts.json"), JSON.stringify(description("")));
    for (const out of ["scripts.png", "scripts.pdf"]) {
      const result = await runCli(["render", "scripts.json", "-o", out], dir);
      expect(result.stderr).not.toContain("warning");
      expect(result.code).toBe(0);
    }
  });

  it("names the characters no font draws, and --font must name a file", async () => {
    writeFileSync(join(dir, "odd.json"), JSON.stringify(description(NO_FONT)));
    const png = await runCli(["render", "odd.json", "-o", "odd.png"], dir);
    expect(png.code).toBe(0);
    expect(png.stderr).toMatch(/odd\.json: warning: no font draws .*U\+10FFFD/);
    const missing = await runCli(
      ["render", "odd.json", "-o", "odd.pdf", "--font", "nope.ttf"],
      dir,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--font: no font file at");
  });
});
