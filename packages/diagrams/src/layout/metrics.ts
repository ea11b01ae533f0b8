import { type FontWeight, measureText, wrapText } from "../text/measure.js";
import { round } from "./geometry.js";
import type { TextBlock } from "./types.js";

/** Sizes of the drawing, in diagram units. Every preset shares them, so a preset never moves anything. */
export const METRICS = {
  margin: 28,
  titleSize: 22,
  subtitleSize: 13,
  laneHeaderWidth: 132,
  laneGap: 14,
  lanePad: 24,
  laneGroupPad: 38,
  laneMinHeight: 112,
  phaseHeaderHeight: 30,
  columnPad: 28,
  columnEdgePad: 16,
  columnMinWidth: 184,
  nodeWidth: 168,
  nodeMinHeight: 58,
  nodePad: 10,
  iconSize: 26,
  labelSize: 13,
  sublabelSize: 11,
  tagSize: 10,
  edgeLabelSize: 11,
  edgeLabelWidth: 150,
  outsideChannel: 28,
  legendGap: 22,
  minWidth: 700,
  minHeight: 240,
} as const;

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
  return {
    lines,
    size,
    weight,
    box: { x: 0, y: 0, width: round(width), height: lines.length * lineHeight(size) },
  };
}

export function place(block: TextBlock, x: number, y: number): TextBlock {
  return { ...block, box: { ...block.box, x: round(x), y: round(y) } };
}
