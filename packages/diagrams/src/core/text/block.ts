import { type Box, round } from "../geometry.js";
import { isCut } from "./cuts.js";
import { type FontWeight, measureText, wrapText } from "./measure.js";

/** A block of wrapped text: one entry per line, positioned by its box. */
export interface TextBlock {
  lines: string[];
  size: number;
  weight: "regular" | "semibold";
  box: Box;
  /** Set when wrapping cut the text short with "…" (core/text/cuts.ts reports it). */
  cut?: true;
}

export const lineHeight = (size: number) => Math.round(size * 1.3);

/** Wraps and measures text; the box is placed later with `place`. */
export function textBlock(
  text: string,
  size: number,
  weight: FontWeight,
  maxWidth: number,
  maxLines = 4,
): TextBlock {
  const lines = wrapText(text, size, maxWidth, weight, maxLines);
  const width = Math.max(...lines.map((l) => measureText(l, size, weight)));
  const block: TextBlock = {
    lines,
    size,
    weight,
    box: { x: 0, y: 0, width: round(width), height: lines.length * lineHeight(size) },
  };
  if (isCut(lines, text)) block.cut = true;
  return block;
}

export function place(block: TextBlock, x: number, y: number): TextBlock {
  return { ...block, box: { ...block.box, x: round(x), y: round(y) } };
}
