import { type Box, round } from "./geometry.js";
import type { BackedLabel } from "./svg/boxes.js";
import { lineHeight, place, type TextBlock, textBlock } from "./text/block.js";

/**
 * A line's label made of parts (a label and its [technology]; an event, its [guard] and its
 * / action), each wrapped on its own so two parts never share a line, stacked in one block.
 */
export function stackedLabel(
  parts: readonly string[],
  size: number,
  maxWidth: number,
): TextBlock & { parts: TextBlock[] } {
  const blocks = parts.map((p) => textBlock(p, size, "regular", maxWidth, 3));
  const lines = blocks.flatMap((b) => b.lines);
  return {
    parts: blocks,
    lines,
    size,
    weight: "regular",
    box: {
      x: 0,
      y: 0,
      width: round(Math.max(...blocks.map((b) => b.box.width))),
      height: lines.length * lineHeight(size),
    },
  };
}

/** A line's label: `block` centred on the background box the layout engine kept for it. */
export function labelOn(block: TextBlock, background: Box): BackedLabel {
  const text = place(
    block,
    background.x + (background.width - block.box.width) / 2,
    background.y + (background.height - block.box.height) / 2,
  );
  return { ...text, background };
}
