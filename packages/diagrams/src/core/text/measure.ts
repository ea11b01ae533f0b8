import { ADVANCE_RUNS, UNITS_PER_EM } from "./metrics.generated.js";

export type FontWeight = "regular" | "semibold";

/** The font every output uses; its advance widths come from the bundled TTF files. */
export const FONT_FAMILY = "Inter";

/** The SVG font-family: Inter first; the others only where a viewer lacks Inter. */
export const FONT_STACK = "Inter, 'Helvetica Neue', Arial, sans-serif";

// Characters the font lacks (CJK, emoji) are counted as one em: wide enough that wrapped
// text never overflows its box, and the same on every machine.
const MISSING_ADVANCE = UNITS_PER_EM;

// Printable ASCII, what most text is made of, is read from an array; the other characters'
// widths are decoded only when a text holds one (a cold start then decodes 95 widths, not 1084).
const ASCII_START = 32;
const ASCII_END = 127;

/** Calls `put` with each code point of [from, to) the font has, and its advance width in font units. */
function decode(
  weight: FontWeight,
  from: number,
  to: number,
  put: (codePoint: number, units: number) => void,
): void {
  for (const [first, widths] of ADVANCE_RUNS[weight]) {
    if (first >= to) continue;
    const list = widths.split(",");
    for (let i = Math.max(0, from - first); i < list.length && first + i < to; i++) {
      put(first + i, Number.parseInt(list[i] ?? "0", 36));
    }
  }
}

const asciiTables = new Map<FontWeight, number[]>();
const otherTables = new Map<FontWeight, Map<number, number>>();

function asciiTable(weight: FontWeight): number[] {
  let table = asciiTables.get(weight);
  if (!table) {
    const widths = Array.from({ length: ASCII_END - ASCII_START }, () => MISSING_ADVANCE);
    decode(weight, ASCII_START, ASCII_END, (cp, units) => {
      widths[cp - ASCII_START] = units;
    });
    table = widths;
    asciiTables.set(weight, table);
  }
  return table;
}

function otherTable(weight: FontWeight): Map<number, number> {
  let table = otherTables.get(weight);
  if (!table) {
    const widths = new Map<number, number>();
    decode(weight, 0, ASCII_START, (cp, units) => widths.set(cp, units));
    decode(weight, ASCII_END, Number.POSITIVE_INFINITY, (cp, units) => widths.set(cp, units));
    table = widths;
    otherTables.set(weight, table);
  }
  return table;
}

/** True when the bundled font (Inter) draws `codePoint`; other characters need a fallback font. */
export function bundledFontHas(codePoint: number): boolean {
  if (codePoint >= ASCII_START && codePoint < ASCII_END) return true;
  return otherTable("regular").has(codePoint);
}

/** Width of `text` in diagram units at `size` px, from the font's advance widths (no kerning). */
export function measureText(text: string, size: number, weight: FontWeight = "regular"): number {
  const ascii = asciiTable(weight);
  let units = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= ASCII_START && code < ASCII_END) {
      units += ascii[code - ASCII_START] as number;
      continue;
    }
    const codePoint = text.codePointAt(i) as number;
    if (codePoint > 0xffff) i++; // the low half of a surrogate pair
    units += otherTable(weight).get(codePoint) ?? MISSING_ADVANCE;
  }
  return (units * size) / UNITS_PER_EM;
}

// Where a token too long for a line may be broken: after these characters (a path's "/", a
// compound's "-", "client_id|timestamp"'s "|" and "_", a dotted name's ".") and before an opening
// bracket, so that "/api/v1/sales-orders" wraps as "/api/v1/" + "sales-orders", never mid-word.
const BREAK_AFTER = new Set([..."/-|_.,:;?&=+\\–—"]);
const BREAK_BEFORE = new Set([..."([{"]);
const NO_BREAK_BEFORE = new Set([...")]}\"'’»"]);

/**
 * Splits a token at its break opportunities. A piece always holds a character that is not a
 * break character, so no line starts or ends with a lone "/" or "(".
 */
function breakPieces(token: string): string[] {
  const chars = [...token];
  const pieces: string[] = [];
  let piece = "";
  let solid = false; // the piece holds a character that is not a break character
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const next = chars[i + 1];
    if (BREAK_BEFORE.has(ch) && solid) {
      pieces.push(piece);
      piece = "";
      solid = false;
    }
    piece += ch;
    if (!BREAK_AFTER.has(ch) && !BREAK_BEFORE.has(ch)) solid = true;
    // Break after a break character, unless what follows is another one or closes something.
    const breakable = next !== undefined && !BREAK_AFTER.has(next) && !NO_BREAK_BEFORE.has(next);
    if (BREAK_AFTER.has(ch) && solid && breakable) {
      pieces.push(piece);
      piece = "";
      solid = false;
    }
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

/**
 * Greedy wrap to `maxWidth`: at spaces first; a token wider than the line is broken at its break
 * opportunities (`breakPieces`), filling the current line, and a piece that still does not fit
 * a line is cut between characters. At most `maxLines` lines; the last one is ellipsised when
 * text remains.
 */
export function wrapText(
  text: string,
  size: number,
  maxWidth: number,
  weight: FontWeight = "regular",
  maxLines = 4,
): string[] {
  const lines: string[] = [];
  const space = measureText(" ", size, weight);
  let line = "";
  let lineWidth = 0;
  const push = () => {
    lines.push(line);
    line = "";
    lineWidth = 0;
  };
  // Adds a piece, `joint` wide before it (a space or nothing), starting a new line if needed.
  const add = (piece: string, joint: string, jointWidth: number) => {
    const w = measureText(piece, size, weight);
    if (line !== "" && lineWidth + jointWidth + w <= maxWidth) {
      line += joint + piece;
      lineWidth += jointWidth + w;
      return;
    }
    if (line !== "") push();
    if (w <= maxWidth) {
      line = piece;
      lineWidth = w;
      return;
    }
    // No break opportunity fits: cut between characters where the piece overflows.
    let rest = piece;
    while (rest !== "") {
      let cut = "";
      for (const ch of rest) {
        if (cut !== "" && measureText(cut + ch, size, weight) > maxWidth) break;
        cut += ch;
      }
      rest = rest.slice(cut.length);
      line = cut;
      lineWidth = measureText(cut, size, weight);
      if (rest !== "") push();
    }
  };
  // A line break written in the text (Mermaid's <br>, a quoted label over two lines) is kept.
  for (const paragraph of text.trim().split(/\s*\n\s*/)) {
    for (const word of paragraph.split(/\s+/)) {
      if (word === "") continue;
      if (measureText(word, size, weight) <= maxWidth) {
        add(word, " ", space);
        continue;
      }
      breakPieces(word).forEach((piece, i) => {
        if (i === 0) add(piece, " ", space);
        else add(piece, "", 0);
      });
    }
    if (line !== "") push();
  }
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1] ?? "";
    while (last.length > 1 && measureText(`${last}…`, size, weight) > maxWidth) {
      last = last.slice(0, -1);
    }
    kept[maxLines - 1] = `${last.trimEnd()}…`;
    return kept;
  }
  return lines.length > 0 ? lines : [""];
}

// Room kept by `fitsWhole`: it adds the same widths as wrapText in another order, and float
// sums differ in their last digits.
const SUM_ROOM = 0.001;

/**
 * True when `wrapText` with these arguments is sure to keep the whole text (no "…"), found
 * without wrapping it: every word fits a line, and the words, a space apart, fit one line or
 * `maxLines` lines each left short by the widest word (greedy wrapping never leaves more of a
 * line unused: the next word would have fit). False means unsure: wrap it to know.
 */
export function fitsWhole(
  text: string,
  size: number,
  maxWidth: number,
  weight: FontWeight = "regular",
  maxLines = 4,
): boolean {
  // Written line breaks start lines of their own: the sum below does not tell.
  if (text.trim().includes("\n")) return false;
  const space = measureText(" ", size, weight);
  let total = 0;
  let widest = 0;
  let words = 0;
  for (const word of text.trim().split(/\s+/)) {
    if (word === "") continue;
    const width = measureText(word, size, weight);
    total += width + (words > 0 ? space : 0);
    widest = Math.max(widest, width);
    words++;
  }
  const room = Math.max(maxWidth, maxLines * (maxWidth - widest)) - SUM_ROOM;
  return widest <= maxWidth && total <= room;
}
