import { describe, expect, it } from "vitest";
import { type FontWeight, fitsWhole, measureText, wrapText } from "../src/core/text/measure.js";
import { ADVANCE_RUNS, UNITS_PER_EM } from "../src/core/text/metrics.generated.js";

const SENTENCES = [
  "Create the partner order exactly once with an idempotency key",
  "POST /api/v1/sales-orders then poll GET /api/v1/sales-orders/{id} until it settles",
  "Wait  for\tthe   webhook \u2026 or retry after the timeout (with back-off) …",
  "iiii iii ii i WWWW WWW WW W mmmm mmm",
  // Words of one width: at some widths each line holds one and leaves the most unused.
  "order order order order order order order order order",
  "Auftragsbestätigung Donaudampfschifffahrtsgesellschaft 注文の確認",
  "",
];

const kept = (text: string, lines: string[]) =>
  lines.join(" ") === text.trim().split(/\s+/).join(" ") || (text.trim() === "" && lines[0] === "");

describe("fitsWhole: whether wrapping keeps a text whole, without wrapping it", () => {
  it("is never true for a text wrapText cuts short or breaks inside a word", () => {
    let sure = 0;
    let multiLine = 0;
    for (const sentence of SENTENCES) {
      const words = sentence.split(" ");
      for (let n = 0; n <= words.length; n++) {
        const text = words.slice(0, n).join(" ");
        for (const [size, weight] of [
          [11, "regular"],
          [22, "semibold"],
        ] as [number, FontWeight][]) {
          for (let width = 20; width <= 320; width += 0.75) {
            for (const maxLines of [1, 2, 3, 4]) {
              if (!fitsWhole(text, size, width, weight, maxLines)) continue;
              const lines = wrapText(text, size, width, weight, maxLines);
              expect(kept(text, lines), `${text} at ${size}px in ${width} × ${maxLines}`).toBe(
                true,
              );
              sure++;
              if (lines.length > 1) multiLine++;
            }
          }
        }
      }
    }
    // It answers for most texts that fit, not only for those that fit one line.
    expect(sure).toBeGreaterThan(10_000);
    expect(multiLine).toBeGreaterThan(1_000);
  });

  it("is true for short texts and false for texts that cannot fit", () => {
    expect(fitsWhole("Check stock", 13, 112, "semibold", 3)).toBe(true);
    expect(fitsWhole("Step 120 of the flow", 13, 112, "semibold", 3)).toBe(true);
    expect(fitsWhole("one two three four five six seven", 13, 40, "regular", 2)).toBe(false);
    // A word wider than the line is broken by wrapText: fitsWhole does not answer for it.
    expect(fitsWhole("Donaudampfschifffahrtsgesellschaft", 13, 80, "regular", 5)).toBe(false);
  });
});

describe("measureText: the font's advance widths, summed", () => {
  it("gives each character its width from the font tables, one em for a character they lack", () => {
    for (const weight of ["regular", "semibold"] as FontWeight[]) {
      const font = new Map<number, number>();
      for (const [first, widths] of ADVANCE_RUNS[weight]) {
        widths.split(",").forEach((w, i) => {
          font.set(first + i, Number.parseInt(w, 36));
        });
      }
      for (let cp = 0; cp < 0x2300; cp++) {
        const expected = font.get(cp) ?? UNITS_PER_EM;
        expect(measureText(String.fromCodePoint(cp), UNITS_PER_EM, weight), `U+${cp}`).toBe(
          expected,
        );
      }
      // Outside the basic plane (two UTF-16 units): one character, one em.
      expect(measureText("a😀b", UNITS_PER_EM, weight)).toBe(
        (font.get(0x61) as number) + UNITS_PER_EM + (font.get(0x62) as number),
      );
      // A lone surrogate is a character the font lacks.
      expect(measureText("a\ud800b", UNITS_PER_EM, weight)).toBe(
        (font.get(0x61) as number) + UNITS_PER_EM + (font.get(0x62) as number),
      );
    }
  });
});
