import { describe, expect, it } from "vitest";
import { type FontWeight, fitsWhole, wrapText } from "../src/core/text/measure.js";

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
