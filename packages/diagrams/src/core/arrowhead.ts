/**
 * The arrowhead's size, shared by the SVG that draws it (core/svg/edge.ts) and the check that
 * two of them must not overlap (core/graph-check.ts), so "stacked" means what the eye sees.
 */

/** From the line's tip back to the arrowhead's base, for a line `strokeWidth` wide. */
export const arrowheadLength = (strokeWidth: number) => 7 + strokeWidth * 1.6;

/** From the line's axis to one corner of the arrowhead's base. */
export const arrowheadHalfWidth = (strokeWidth: number) => 3.5 + strokeWidth;

/** The widest line the graph types draw (a confidential or personal data flow). */
export const WIDEST_STROKE = 2;

/**
 * Two tips closer than this overlap whichever way they point: side by side they are closer
 * than one arrowhead's width, in line closer than its length.
 */
export const ARROWHEAD_SPAN = Math.max(
  2 * arrowheadHalfWidth(WIDEST_STROKE),
  arrowheadLength(WIDEST_STROKE),
);
