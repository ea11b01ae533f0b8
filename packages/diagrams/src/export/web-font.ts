import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { FONT_FAMILY } from "../core/text/measure.js";

const require = createRequire(import.meta.url);

const LATIN_RANGE =
  "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD";
const LATIN_EXT_RANGE =
  "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF";

function face(subset: "latin" | "latin-ext", weight: 400 | 600, range: string): string {
  const file = require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff2`);
  const data = readFileSync(file).toString("base64");
  return `@font-face{font-family:'${FONT_FAMILY}';font-style:normal;font-weight:${weight};font-display:block;src:url(data:font/woff2;base64,${data}) format('woff2');unicode-range:${range}}`;
}

/**
 * @font-face rules embedding Inter (the font the layout measured with) as WOFF2 data, so the
 * HTML page draws the same text on machines without Inter installed. The Latin Extended
 * files are added only when the text needs them.
 */
export function webFontCss(text: string): string {
  const needsExt = /[\u0100-\u02ff\u1e00-\u1eff\u20a0-\u20ab\u2c60-\u2c7f]/.test(text);
  const faces = [face("latin", 400, LATIN_RANGE), face("latin", 600, LATIN_RANGE)];
  if (needsExt)
    faces.push(face("latin-ext", 400, LATIN_EXT_RANGE), face("latin-ext", 600, LATIN_EXT_RANGE));
  return faces.join("\n");
}
