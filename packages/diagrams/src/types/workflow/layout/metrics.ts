import type { TextBlock } from "../../../core/text/block.js";
import { isCut as linesCut } from "../../../core/text/cuts.js";

export { place, textBlock } from "../../../core/text/block.js";
export { cutMessage } from "../../../core/text/cuts.js";

/** True when wrapping had to cut `text` short (its last line ends in "…"). */
export const isCut = (block: TextBlock, text: string): boolean => linesCut(block.lines, text);

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
