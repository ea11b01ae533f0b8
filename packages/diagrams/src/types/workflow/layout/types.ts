import type { Box } from "../../../core/geometry.js";
import type { EdgeBox, NodeBox } from "../../../core/svg/boxes.js";
import type { Frame, LegendLayout } from "../../../core/svg/document.js";
import type { TextBlock } from "../../../core/text/block.js";
import type { UnlocatedProblem } from "../../../core/validate/schema-problems.js";
import type { BandVariant, DiagramNode, Edge, Side } from "../model.js";

export type { Box } from "../../../core/geometry.js";
export type { TextBlock } from "../../../core/text/block.js";

export interface LaneLayout {
  id: string;
  index: number;
  exception: boolean;
  box: Box;
  /** The header cell at the left of the lane, holding its label. */
  header: Box;
  label: TextBlock;
}

export interface BandLayout {
  id: string;
  variant: BandVariant;
  box: Box;
  label: TextBlock;
  /** What an edge label must not cover: a phase's header strip, a group's caption text. */
  caption: Box;
}

export interface NodeLayout extends NodeBox {
  node: DiagramNode;
}

export interface EdgeLayout extends EdgeBox {
  /** The edge's id, or `e<index>` when the description gives none. */
  id: string;
  index: number;
  edge: Edge;
  fromSide: Side;
  toSide: Side;
}

export interface Layout extends Frame {
  /** The area the lanes cover (header column included). */
  body: Box;
  columns: { index: number; x: number; width: number }[];
  lanes: LaneLayout[];
  phases: BandLayout[];
  groups: BandLayout[];
  nodes: NodeLayout[];
  edges: EdgeLayout[];
  legend?: LegendLayout;
  /** What the drawing could not honour: requested routes or channels, text cut short. */
  warnings: UnlocatedProblem[];
}
