import { place, type TextBlock, textBlock } from "./block.js";

/** The sizes a drawing's heading takes. */
interface HeadingMetrics {
  margin: number;
  titleSize: number;
  subtitleSize: number;
}

/**
 * The title and subtitle at the drawing's top left, wrapped to the drawing's width (at least
 * 560), and where the body starts under them.
 */
export function placeHeading(
  titleText: string,
  subtitleText: string | undefined,
  width: number,
  m: HeadingMetrics,
): { title: TextBlock; subtitle?: TextBlock; top: number } {
  const wrap = Math.max(width, 560);
  let y = m.margin;
  const title = place(textBlock(titleText, m.titleSize, "semibold", wrap, 2), m.margin, y);
  y += title.box.height;
  if (subtitleText === undefined || subtitleText === "") return { title, top: y + 24 };
  const subtitle = place(
    textBlock(subtitleText, m.subtitleSize, "regular", wrap, 3),
    m.margin,
    y + 4,
  );
  y += 4 + subtitle.box.height;
  return { title, subtitle, top: y + 24 };
}
