import { fontFiles } from "../core/text/fonts.js";
import { FONT_FAMILY } from "../core/text/measure.js";

export interface PngOptions {
  /** Pixels per diagram unit; 2 gives a drawing twice as wide and high. Default 1. */
  scale?: number;
}

/**
 * Rasterises an SVG produced by renderSvg with resvg, using only the bundled font (no system
 * fonts), so the pixels are the same on every machine. resvg is loaded on first use, keeping
 * it out of the cold start of commands that never draw a PNG.
 */
export async function renderPng(svg: string, options: PngOptions = {}): Promise<Buffer> {
  const scale = options.scale ?? 1;
  if (!(scale > 0) || scale > 16)
    throw new RangeError(`scale must be above 0 and at most 16, not ${scale}`);
  const { Resvg } = await import("@resvg/resvg-js");
  const files = fontFiles();
  const resvg = new Resvg(svg, {
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
