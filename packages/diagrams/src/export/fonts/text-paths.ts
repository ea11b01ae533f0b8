import { fontFiles } from "../../core/text/fonts.js";
import { decodeXml } from "./drawn-text.js";
import { type FallbackFace, faceFor, isInvisible } from "./fallback.js";

type Fontkit = typeof import("fontkit");
type Font = import("fontkit").Font;

// The <text> elements the types render: presentation attributes, then <tspan x y> lines (or
// the text itself, positioned by the element's own x and y).
const TEXT_ELEMENT = /<text\b([^>]*)>([\s\S]*?)<\/text>/g;
const TSPAN = /<tspan\b([^>]*)>([^<]*)<\/tspan>/g;
const ATTRIBUTE = /([\w:-]+)="([^"]*)"/g;

// Drawn in the font of the character before them: spaces between two words of one script, a
// script's combining marks, joiners, variation selectors.
function followsNeighbour(ch: string): boolean {
  return isInvisible(ch) || /\p{M}/u.test(ch);
}

function attributes(source: string): Map<string, string> {
  return new Map([...source.matchAll(ATTRIBUTE)].map((m) => [m[1] as string, m[2] as string]));
}

/** The fonts text is drawn with: the bundled Inter and the fallback faces, opened once. */
class Fonts {
  private readonly opened = new Map<string, Font>();
  constructor(private readonly fontkit: Fontkit) {}

  open(path: string, postscriptName?: string): Font {
    const key = `${path}#${postscriptName ?? ""}`;
    let font = this.opened.get(key);
    if (!font) {
      const file = this.fontkit.openSync(path);
      font =
        "fonts" in file
          ? (file.fonts.find((f) => f.postscriptName === postscriptName) ?? (file.fonts[0] as Font))
          : file;
      this.opened.set(key, font);
    }
    return font;
  }

  bundled(semibold: boolean): Font {
    const files = fontFiles();
    return this.open(semibold ? files.semibold : files.regular);
  }
}

interface Run {
  face: FallbackFace | undefined;
  text: string;
}

/** A line cut where its font changes; spaces and marks stay with the letter before them. */
function runsOf(text: string, faces: readonly FallbackFace[]): Run[] {
  const runs: Run[] = [];
  for (const ch of text) {
    const last = runs[runs.length - 1];
    const face = faceFor(faces, ch.codePointAt(0) as number);
    if (last && (face === last.face || (face === undefined && followsNeighbour(ch)))) {
      last.text += ch;
    } else runs.push({ face, text: ch });
  }
  return runs;
}

/** One line as glyph outlines, `size` px high, starting at x = 0 on the baseline y = 0. */
function lineOutline(
  text: string,
  size: number,
  semibold: boolean,
  faces: readonly FallbackFace[],
  fonts: Fonts,
): { paths: string[]; width: number } {
  const paths: string[] = [];
  let x = 0;
  for (const run of runsOf(text, faces)) {
    const font = run.face
      ? fonts.open(run.face.path, run.face.postscriptName)
      : fonts.bundled(semibold);
    const scale = size / font.unitsPerEm;
    const shaped = font.layout(run.text);
    // fontkit gives a right-to-left run's glyphs already in drawing order, left to right.
    for (let i = 0; i < shaped.glyphs.length; i++) {
      const glyph = shaped.glyphs[i];
      const at = shaped.positions[i];
      if (!glyph || !at) continue;
      const d = glyph.path.toSVG();
      if (d !== "") {
        const gx = x + at.xOffset * scale;
        const gy = -at.yOffset * scale;
        paths.push(
          `<path transform="translate(${gx.toFixed(2)} ${gy.toFixed(2)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${d}"/>`,
        );
      }
      x += at.xAdvance * scale;
    }
  }
  return { paths, width: x };
}

const KEPT_ON_GROUP = new Set(["fill", "fill-opacity", "opacity", "class", "style"]);

/** One <text> element as a group of outlines, or unchanged when no fallback face draws in it. */
function textAsOutlines(
  element: string,
  head: string,
  body: string,
  faces: readonly FallbackFace[],
  fonts: Fonts,
): string {
  const attrs = attributes(head);
  const lines = [...body.matchAll(TSPAN)].map((m) => {
    const own = attributes(m[1] as string);
    return {
      x: own.get("x") ?? attrs.get("x"),
      y: own.get("y") ?? attrs.get("y"),
      text: m[2] as string,
    };
  });
  if (lines.length === 0) lines.push({ x: attrs.get("x"), y: attrs.get("y"), text: body });
  const decoded = lines.map((l) => ({ ...l, text: decodeXml(l.text) }));
  const needsFallback = decoded.some((l) =>
    [...l.text].some((ch) => faceFor(faces, ch.codePointAt(0) as number)),
  );
  if (!needsFallback) return element;
  const size = Number(attrs.get("font-size") ?? 16);
  const semibold = Number(attrs.get("font-weight") ?? 400) >= 600;
  const anchor = attrs.get("text-anchor") ?? "start";
  const kept = [...attrs].filter(([k]) => KEPT_ON_GROUP.has(k)).map(([k, v]) => ` ${k}="${v}"`);
  const groups = decoded.map((line) => {
    const { paths, width } = lineOutline(line.text, size, semibold, faces, fonts);
    const shift = anchor === "middle" ? width / 2 : anchor === "end" ? width : 0;
    const x = Number(line.x ?? 0) - shift;
    return `<g transform="translate(${x.toFixed(2)} ${Number(line.y ?? 0).toFixed(2)})">${paths.join("")}</g>`;
  });
  return `<g${kept.join("")}>${groups.join("")}</g>`;
}

/**
 * The SVG with every <text> element that holds characters a fallback face draws replaced by
 * those glyphs' outlines, shaped by fontkit (Arabic joining, Indic and Thai marks) and laid out
 * as the element would be (x, y, text-anchor, size, weight). resvg and svg-to-pdfkit then draw
 * shapes they cannot get wrong; text in the bundled font alone stays text.
 */
export async function fallbackTextAsOutlines(
  svg: string,
  faces: readonly FallbackFace[],
): Promise<string> {
  if (faces.length === 0) return svg;
  const fonts = new Fonts((await import("fontkit")) as Fontkit);
  return svg.replace(TEXT_ELEMENT, (element, head: string, body: string) =>
    textAsOutlines(element, head, body, faces, fonts),
  );
}
