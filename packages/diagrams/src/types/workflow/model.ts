/**
 * The workflow description format (diagram_type "workflow"), as TypeScript types.
 *
 * This is the contract between the workflow stages: validation produces a `WorkflowDiagram`,
 * layout consumes one. The JSON Schema in `schema/workflow.schema.json` is the authority for
 * what a file may contain; these types must describe exactly the same shapes. What every type
 * shares comes from core/model.ts; docs/diagrams/workflow.md explains the rest.
 */
import type {
  BandVariant,
  BrandMark,
  Card,
  ComponentType,
  EdgeRole,
  EdgeVariant,
  Id,
  Meta,
  Point,
  Side,
} from "../../core/model.js";

export * from "../../core/model.js";

export const ROUTES = [
  "auto",
  "straight",
  "drop",
  "outside-right",
  "return-left",
  "bottom-channel",
  "up-channel",
] as const;
export type Route = (typeof ROUTES)[number];

export interface Lane {
  id: Id;
  label: string;
  variant?: "normal" | "exception";
}

export interface Phase {
  id: Id;
  label: string;
  fromCol: number;
  toCol: number;
  variant?: BandVariant;
}

export interface Group {
  id: Id;
  label: string;
  lane: Id;
  fromCol: number;
  toCol: number;
  variant?: BandVariant;
}

export interface DiagramNode {
  id: Id;
  lane: Id;
  /** 0 to 5. */
  col: number;
  type: ComponentType;
  label: string;
  sublabel?: string;
  tag?: string;
  brand?: BrandMark;
  width?: number;
  height?: number;
  yOffset?: number;
}

export interface Edge {
  id?: Id;
  from: Id;
  to: Id;
  label?: string;
  variant?: EdgeVariant;
  role?: EdgeRole;
  fromSide?: Side;
  toSide?: Side;
  route?: Route;
  via?: Point[];
  labelAt?: Point;
  labelDx?: number;
  labelDy?: number;
  labelSegment?: number;
  channelX?: number;
  channelY?: number;
  bias?: number;
  width?: number;
}

export interface FromTo {
  from: Id;
  to: Id;
}

export interface SemanticChecks {
  allowedRoots?: Id[];
  allowedTerminals?: Id[];
  requiredEdges?: FromTo[];
  requiredPaths?: FromTo[];
}

export interface WorkflowDiagram {
  schema_version: 1 | 2;
  diagram_type: "workflow";
  meta: Meta;
  lanes: Lane[];
  nodes: DiagramNode[];
  edges: Edge[];
  phases?: Phase[];
  groups?: Group[];
  mainPath?: Id[];
  semanticChecks?: SemanticChecks;
  /** schema_version 2 only. Keys are node ids. */
  cards?: Record<Id, Card>;
}
