import type { Box } from "../../core/geometry.js";
import type { EdgeRole, Point } from "../../core/model.js";
import type { ArrowLine, NodeBox } from "../../core/svg/boxes.js";
import type { Frame, LegendLayout } from "../../core/svg/document.js";
import type { TextBlock } from "../../core/text/block.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import type { Message, MessageKind } from "./model.js";

/** The sequence layout's measures and the shapes it hands the renderer. */
export const SEQ = {
  margin: 28,
  headMinWidth: 124,
  headMaxWidth: 196,
  headGap: 36,
  labelSize: 11,
  labelMaxWidth: 240,
  labelPad: 12,
  noteSize: 11,
  noteMaxWidth: 200,
  notePad: 8,
  /** How far a note over several participants reaches past the outer two lifelines. */
  noteOverhang: 20,
  barWidth: 10,
  barStep: 5,
  selfWidth: 32,
  framePad: 10,
  tabSize: 11,
  badge: 8,
  rowGap: 14,
  boxLabelSize: 11,
  boxPad: 10,
  repeatHeadsAfter: 480,
  legendGap: 22,
  minWidth: 700,
  minHeight: 240,
} as const;

export type HeadLayout = NodeBox;

export interface ParticipantLayout {
  id: string;
  index: number;
  x: number;
  head: HeadLayout;
  /** The repeated header below the lifelines of a long diagram. */
  foot?: HeadLayout;
  lifeline: { x: number; y1: number; y2: number };
  /** Where a destroy message ends the lifeline (the cross). */
  destroyed?: Point;
}

export interface MessageLayout extends ArrowLine {
  /** The message's id, or `_m<number>` when it has none. */
  id: string;
  /** 1-based drawing order. */
  number: number;
  message: Message;
  kind: MessageKind;
  role: EdgeRole;
  badge?: { cx: number; cy: number; r: number; text: string };
}

export interface ActivationLayout {
  participant: string;
  level: number;
  box: Box;
}

export interface NoteLayout {
  index: number;
  participants: string[];
  box: Box;
  text: TextBlock;
}

export interface FrameLayout {
  id: string;
  kind: string;
  depth: number;
  box: Box;
  tab: Box;
  tabLabel: TextBlock;
  /** Guard texts: the first sits beside the tab, each next one under its branch separator. */
  guards: (TextBlock & { background: Box })[];
  separators: { y: number; x1: number; x2: number }[];
}

export interface DividerLayout {
  y: number;
  x1: number;
  x2: number;
  label: TextBlock & { background: Box };
}

export interface GroupBoxLayout {
  id: string;
  box: Box;
  label: TextBlock;
}

export interface SequenceLayout extends Frame {
  boxes: GroupBoxLayout[];
  participants: ParticipantLayout[];
  activations: ActivationLayout[];
  messages: MessageLayout[];
  notes: NoteLayout[];
  frames: FrameLayout[];
  dividers: DividerLayout[];
  legend?: LegendLayout;
  /** Text the drawing cut short (render/text-cut). */
  warnings?: UnlocatedProblem[];
}
