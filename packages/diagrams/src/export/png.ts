import { fontFiles } from "../core/text/fonts.js";
import { FONT_FAMILY } from "../core/text/measure.js";
import { drawnTexts } from "./fonts/drawn-text.js";
import { chooseFallbackFonts } from "./fonts/fallback.js";
import type { TextOptions } from "./fonts/text-options.js";
import { fallbackTextAsOutlines } from "./fonts/text-paths.js";
import { uncoveredWarning } from "./fonts/uncovered-warning.js";

interface PngOptions extends TextOptions {
  /** Pixels per diagram unit; 2 gives a drawing twice as wide and high. Default 1. */
  scale?: number;
}

/**
 * Rasterises an SVG produced by renderSvg with resvg. Text is set in the bundled font, so the
 * pixels are the same on every machine; text holding characters it lacks (CJK, Arabic, Thai,
 * Devanagari…) is drawn as outlines from a fallback font (the given files, then the system's),
 * shaped by fontkit, whose shaping of those scripts resvg's text layout does not match. resvg is
 * loaded on first use, keeping it out of the cold start of commands that never draw a PNG.
 */
export async function renderPng(svg: string, options: PngOptions = {}): Promise<Buffer> {
  const scale = options.scale ?? 1;
  if (!(scale > 0) || scale > 16)
    throw new RangeError(`scale must be above 0 and at most 16, not ${scale}`);
  const [{ Resvg }, fallback] = await Promise.all([
    import("@resvg/resvg-js"),
    chooseFallbackFonts(drawnTexts(svg), options),
  ]);
  if (fallback.uncovered.length > 0) options.onWarning?.(uncoveredWarning(fallback.uncovered));
  const files = fontFiles();
  const drawn = await fallbackTextAsOutlines(svg, fallback.faces);
  const resvg = new Resvg(drawn, {
    fitTo: { mode: "zoom", value: scale },
    font: {
      fontFiles: [files.regular, files.semibold],
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
    shapeRendering: 2,
    textRendering: 1,
  });
  return resvg.render().asPng();
}
