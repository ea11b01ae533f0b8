import type { TextBlock } from "../text/block.js";
import { el, esc } from "./xml.js";

/** A wrapped text block as one <text> with a <tspan> per line, baselines from the block's box. */
export function text(block: TextBlock, fill: string, anchor?: "middle"): string {
  const lh = Math.round(block.size * 1.3);
  const x = anchor === "middle" ? block.box.x + block.box.width / 2 : block.box.x;
  const spans = block.lines
    .map((line, i) => el("tspan", { x, y: block.box.y + i * lh + block.size * 0.98 }, esc(line)))
    .join("");
  return el(
    "text",
    {
      "font-size": block.size,
      "font-weight": block.weight === "semibold" ? 600 : 400,
      fill,
      "text-anchor": anchor,
    },
    spans,
  );
}
