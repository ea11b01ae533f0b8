// How each text of a workflow drawing is wrapped, in one place: the layout wraps them so, and
// `mayCutText` tells from the same figures whether any could be cut short.
import { type FontWeight, fitsWhole } from "../../../core/text/measure.js";
import type { DiagramNode, WorkflowDiagram } from "../model.js";
import { METRICS as M, textBlock } from "./metrics.js";
import type { TextBlock } from "./types.js";

/**
 * How a text of the drawing is wrapped: its size and weight, the width of its lines and how
 * many lines it may take before it is cut short with "…".
 */
export type Wrap = readonly [size: number, weight: FontWeight, width: number, lines: number];

export const wrap = (text: string, [size, weight, width, lines]: Wrap): TextBlock =>
  textBlock(text, size, weight, width, lines);

export const titleWrap = (width: number): Wrap => [M.titleSize, "semibold", width, 2];
export const subtitleWrap = (width: number): Wrap => [M.subtitleSize, "regular", width, 3];
export const LANE_LABEL: Wrap = [12, "semibold", M.laneHeaderWidth - 24, 4];
export const EDGE_LABEL: Wrap = [M.edgeLabelSize, "regular", M.edgeLabelWidth, 3];
/** A phase's or a group's label, on one line across its band. */
export const bandLabelWrap = (bandWidth: number): Wrap => [11, "semibold", bandWidth - 16, 1];
/** How far a phase's and a group's band stand in from the gutter middles either side. */
export const BAND_INSET = { phase: 3, group: 8 } as const;

/** A node's box width, whether it shows its icon, and how its texts are wrapped beside that. */
export function nodeWraps(node: DiagramNode) {
  const width = node.width ?? M.nodeWidth;
  const withIcon = width >= 110;
  const textWidth = width - 2 * M.nodePad - (withIcon ? M.iconSize + M.nodePad : 0);
  return {
    width,
    withIcon,
    label: [M.labelSize, "semibold", textWidth, 3] as Wrap,
    sublabel: [M.sublabelSize, "regular", textWidth, 3] as Wrap,
    tag: [M.tagSize, "semibold", textWidth - 12, 1] as Wrap,
  };
}

/** True when `text`, wrapped as `wrap` says, may be cut short; false when it is kept whole. */
const mayCut = (text: string | undefined, [size, weight, width, lines]: Wrap) =>
  text !== undefined && !fitsWhole(text, size, width, weight, lines);

/**
 * False when no text of the drawing can be cut short, however the layout sizes what holds it:
 * each text is held to the least room its layout can give it (columns at their minimum width)
 * and found to fit without wrapping it. True means some text may be cut: lay it out to know.
 */
export function mayCutText(diagram: WorkflowDiagram): boolean {
  const columns = 1 + Math.max(0, ...diagram.nodes.map((n) => n.col));
  const body = M.laneHeaderWidth + 2 * M.columnEdgePad + columns * M.columnMinWidth;
  // A band spans its columns between gutter middles, each rounded (by up to half a hundredth).
  const band = (b: { fromCol: number; toCol: number }, inset: number) =>
    bandLabelWrap((b.toCol - b.fromCol + 1) * M.columnMinWidth - 2 * inset - 0.01);
  return (
    mayCut(diagram.meta.title, titleWrap(body)) ||
    mayCut(diagram.meta.subtitle, subtitleWrap(body)) ||
    diagram.lanes.some((l) => mayCut(l.label, LANE_LABEL)) ||
    (diagram.phases ?? []).some((p) => mayCut(p.label, band(p, BAND_INSET.phase))) ||
    (diagram.groups ?? []).some((g) => mayCut(g.label, band(g, BAND_INSET.group))) ||
    diagram.nodes.some((n) => {
      const wraps = nodeWraps(n);
      return (
        mayCut(n.label, wraps.label) ||
        mayCut(n.sublabel, wraps.sublabel) ||
        mayCut(n.tag, wraps.tag)
      );
    }) ||
    diagram.edges.some((e) => mayCut(e.label, EDGE_LABEL))
  );
}
