import type { TextBlock } from "../../../core/text/block.js";

export { lineHeight, place, textBlock } from "../../../core/text/block.js";

/** True when wrapping had to cut `text` short (its last line ends in "…"). */
export function isCut(block: TextBlock, text: string): boolean {
  const last = block.lines[block.lines.length - 1] ?? "";
  return last.endsWith("…") && !text.trimEnd().endsWith("…");
}

export const cutMessage = (block: TextBlock) =>
  `the text does not fit in ${block.lines.length} line${block.lines.length === 1 ? "" : "s"} and is cut short with "…"`;

/** Sizes of the drawing, in diagram units. Every preset shares them, so a preset never moves anything. */
export const METRICS = {
  margin: 28,
  titleSize: 22,
  subtitleSize: 13,
  laneHeaderWidth: 132,
  laneGap: 22,
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
