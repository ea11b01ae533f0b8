import type {
  BandVariant,
  ComponentType,
  DiagramNode,
  Edge,
  EdgeRole,
  LegendKey,
  Point,
  Side,
} from "../schema/types.js";

/** An axis-aligned rectangle in diagram units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A block of wrapped text: one entry per line, positioned by its box. */
export interface TextBlock {
  lines: string[];
  size: number;
  weight: "regular" | "semibold";
  box: Box;
}

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
}

export interface NodeLayout {
  id: string;
  node: DiagramNode;
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

export interface EdgeLayout {
  /** The edge's id, or `e<index>` when the description gives none. */
  id: string;
  index: number;
  edge: Edge;
  role: EdgeRole;
  fromSide: Side;
  toSide: Side;
  /** The orthogonal polyline, from the source's boundary to the target's. */
  points: Point[];
  /** Where the arrow ends (the last point) and the direction it points, as a unit vector. */
  arrow: { tip: Point; dx: number; dy: number };
  label?: TextBlock & { background: Box };
  strokeWidth: number;
}

/** A legend line: a component category (colour swatch) or a flow role (line sample). */
export type LegendItem =
  | {
      kind: "category";
      key: LegendKey;
      label: string;
      description?: string;
      swatch: Box;
      text: TextBlock;
    }
  | { kind: "flow"; key: EdgeRole; label: string; swatch: Box; text: TextBlock };

export interface Layout {
  width: number;
  height: number;
  /** Uniform scale applied to the drawing to fit a meta.viewBox smaller than its content. */
  scale: number;
  /** Translation applied after scaling (centres a fitted drawing). */
  offset: Point;
  title: TextBlock;
  subtitle?: TextBlock;
  /** The area the lanes cover (header column included). */
  body: Box;
  columns: { index: number; x: number; width: number }[];
  lanes: LaneLayout[];
  phases: BandLayout[];
  groups: BandLayout[];
  nodes: NodeLayout[];
  edges: EdgeLayout[];
  legend?: { box: Box; title: TextBlock; items: LegendItem[] };
}
