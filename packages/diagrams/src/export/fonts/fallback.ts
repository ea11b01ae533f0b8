import { statSync } from "node:fs";
import { bundledFontHas } from "../../core/text/measure.js";
import { systemFontFiles } from "./system-fonts.js";

/** A font face that draws characters the bundled font lacks. */
export interface FallbackFace {
  /** The font file. */
  path: string;
  /** The face's PostScript name: which face of a collection (.ttc) is meant. */
  postscriptName: string;
  /** The family name that output marks its characters with (e.g. "Noto Sans CJK JP"). */
  family: string;
  /** The code points of the drawing this face draws. */
  draws: Set<number>;
}

interface FontChoice {
  faces: FallbackFace[];
  /** Code points of the drawing that no font draws, in order of first appearance. */
  uncovered: number[];
}

interface FallbackOptions {
  /** Font files tried first, before the system's fonts. */
  fonts?: readonly string[];
  /** The drawing's language (meta.locale): picks the face of a CJK collection (JP, KR, SC, TC). */
  locale?: string;
}

/** Spaces, joiners, direction marks and variation selectors: drawn with no glyph of their own. */
export function isInvisible(ch: string): boolean {
  const cp = ch.codePointAt(0) as number;
  return (
    /\s/u.test(ch) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    cp === 0x2060 ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  );
}

/** The code points of `texts` that the bundled font lacks and that need a glyph. */
function missingCodePoints(texts: Iterable<string>): number[] {
  const seen = new Set<number>();
  for (const text of texts) {
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      if (bundledFontHas(cp) || seen.has(cp)) continue;
      if (isInvisible(ch)) continue;
      seen.add(cp);
    }
  }
  return [...seen];
}

// File names that usually hold a script's glyphs, tried before every other installed font.
const SCRIPT_HINTS: Array<{ range: (cp: number) => boolean; file: RegExp }> = [
  {
    range: (cp) =>
      (cp >= 0x2e80 && cp <= 0x9fff) ||
      (cp >= 0xac00 && cp <= 0xd7af) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xff00 && cp <= 0xffef) ||
      cp >= 0x20000,
    file: /CJK|WenQuanYi|wqy|DroidSansFallback|Hiragino|YuGothic|msgothic|PingFang|Hei/i,
  },
  {
    range: (cp) =>
      (cp >= 0x0600 && cp <= 0x08ff) ||
      (cp >= 0xfb50 && cp <= 0xfdff) ||
      (cp >= 0xfe70 && cp <= 0xfeff),
    file: /Arabic|DejaVuSans\.ttf|GeezaPro|tahoma/i,
  },
  {
    range: (cp) => cp >= 0x0e00 && cp <= 0x0e7f,
    file: /Thai|Loma|Garuda|Waree|Sawasdee|Tlwg|Leelawad/i,
  },
  {
    range: (cp) => (cp >= 0x0900 && cp <= 0x097f) || (cp >= 0xa8e0 && cp <= 0xa8ff),
    file: /Devanagari|Lohit-Hindi|gargi|Kalimati|Mangal|Nirmala/i,
  },
];

// Files this large are CJK collections (Noto Sans CJK is 19 MB): read whole by fontkit, they are
// tried only when the script hints name them, not in the search through every installed font.
const LARGE_FONT = 12 * 1024 * 1024;

function isLarge(path: string): boolean {
  try {
    return statSync(path).size > LARGE_FONT;
  } catch {
    return true;
  }
}

/** Installed font files, those named for the scripts of `missing` first. */
function candidateFiles(missing: readonly number[], fonts: readonly string[]): string[] {
  const system = systemFontFiles();
  const hinted = SCRIPT_HINTS.filter((h) => missing.some(h.range)).flatMap((h) =>
    system.filter((path) => h.file.test(path)),
  );
  const rest = system.filter((path) => !isLarge(path));
  return [...new Set([...fonts, ...hinted, ...rest])];
}

// Which face of a CJK collection a language reads best in (Japanese kanji differ from Chinese).
function localeTag(locale: string | undefined): RegExp | undefined {
  const l = (locale ?? "").toLowerCase();
  if (l.startsWith("ja")) return /jp|japan/i;
  if (l.startsWith("ko")) return /kr|korea/i;
  if (/^zh-(tw|hk|mo|hant)/.test(l)) return /tc|hk|taiwan/i;
  if (l.startsWith("zh")) return /sc|simplified/i;
  return undefined;
}

type Fontkit = typeof import("fontkit");
type Face = import("fontkit").Font;

function facesOf(fontkit: Fontkit, path: string, locale: string | undefined): Face[] {
  let opened: Face | import("fontkit").FontCollection;
  try {
    opened = fontkit.openSync(path);
  } catch {
    return []; // not a font fontkit reads
  }
  if (!("fonts" in opened)) return [opened];
  // A collection: its plain faces, the one matching the language first.
  const tag = localeTag(locale);
  const plain = opened.fonts.filter((f) => !/mono/i.test(f.postscriptName));
  const faces = plain.length > 0 ? plain : opened.fonts;
  return tag ? [...faces.filter((f) => tag.test(f.postscriptName)), ...faces] : faces;
}

const chosen = new Map<string, FontChoice>();

/**
 * The fonts that draw the characters of `texts` the bundled font lacks: the given font files
 * first, then the system's, one face per file, until every character has one. Remembered per
 * process for the same characters and options.
 */
export async function chooseFallbackFonts(
  texts: Iterable<string>,
  options: FallbackOptions = {},
): Promise<FontChoice> {
  const missing = missingCodePoints(texts);
  if (missing.length === 0) return { faces: [], uncovered: [] };
  const fonts = options.fonts ?? [];
  const key = JSON.stringify([missing, fonts, localeTag(options.locale)?.source]);
  const known = chosen.get(key);
  if (known) return known;
  const fontkit = (await import("fontkit")) as Fontkit;
  const left = new Set(missing);
  const faces: FallbackFace[] = [];
  for (const path of candidateFiles(missing, fonts)) {
    if (left.size === 0) break;
    for (const face of facesOf(fontkit, path, options.locale)) {
      const draws = new Set([...left].filter((cp) => face.hasGlyphForCodePoint(cp)));
      if (draws.size === 0) continue;
      for (const cp of draws) left.delete(cp);
      faces.push({ path, postscriptName: face.postscriptName, family: face.familyName, draws });
      break; // one face per file
    }
  }
  const choice = { faces, uncovered: missing.filter((cp) => left.has(cp)) };
  chosen.set(key, choice);
  return choice;
}

/** The face that draws `cp`, or undefined for the bundled font (or none). */
export function faceFor(faces: readonly FallbackFace[], cp: number): FallbackFace | undefined {
  return faces.find((f) => f.draws.has(cp));
}
