import type { Arrow, Box } from "../geometry.js";
import type {
  BrandMark,
  ComponentType,
  EdgeRole,
  EdgeVariant,
  Id,
  LegendKey,
  Point,
} from "../model.js";
import type { TextBlock } from "../text/block.js";

/** What a node box says about itself in its accessible name and its brand badge. */
interface NodeSpec {
  type: ComponentType;
  label: string;
  sublabel?: string;
  tag?: string;
  brand?: BrandMark;
}

/** A component drawn as a box with its type icon, as every type that has boxes lays it out. */
export interface NodeBox {
  id: string;
  node: NodeSpec;
  type: ComponentType;
  category: LegendKey | null;
  box: Box;
  /** The type icon's square. */
  icon: Box;
  label: TextBlock;
  sublabel?: TextBlock;
  tag?: TextBlock & { pill: Box };
  brand?: { circle: { cx: number; cy: number; r: number }; monogram: string; size: number };
}

/** What a drawn line says about itself: its ends, its label and its styling. */
interface EdgeSpec {
  from: Id;
  to: Id;
  label?: string;
  variant?: EdgeVariant;
}

/** A label on a background of its own, so it reads over the lines it crosses. */
export type BackedLabel = TextBlock & { background: Box };

/** What every type lays out for a connecting line, whoever draws it. */
export interface ArrowLine {
  /** The orthogonal polyline, from where the line leaves its source to where it meets its target. */
  points: Point[];
  /** Where the arrow ends (the last point) and the direction it points. */
  arrow: Arrow;
  label?: BackedLabel;
  /** Drawn against the drawing's main direction (the layout turned it round to break a cycle). */
  against?: true;
}

/** A line with an arrowhead, laid out as a polyline, as `renderEdge` draws it. */
export interface EdgeBox extends ArrowLine {
  /** The element id (`data-id`), unique in the drawing. */
  id: string;
  edge: EdgeSpec;
  role: EdgeRole;
  strokeWidth: number;
  /** A type's own look for the line, over its role's (e.g. a data-flow classification's colour). */
  style?: { color?: string; dash?: string };
  /** More classes on the edge's group, after `edge edge-<role>`. */
  className?: string;
  /** The accessible name, when the role's wording ("main flow from …") does not fit. */
  ariaLabel?: string;
  /** More SVG inside the edge's group, drawn over the line (e.g. boundary crossing marks). */
  decorations?: string;
}
