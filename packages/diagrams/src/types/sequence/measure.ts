import { LEGEND_CATEGORY } from "../../core/model.js";
import type { NodeBox } from "../../core/svg/boxes.js";
import { type TextBlock, textBlock } from "../../core/text/block.js";
import { measureText } from "../../core/text/measure.js";
import { SEQ } from "./layout-types.js";
import {
  frameBranches,
  isBranched,
  isFragment,
  isMessage,
  type Message,
  type Participant,
  type SequenceDiagram,
  type Step,
} from "./model.js";

/** The first pass of the sequence layout (layout.ts): every text measured and wrapped once, before any position is known. */

function measureHead(p: Participant): { width: number; block: NodeBox } {
  const pad = 10;
  const icon = 26;
  const natural =
    icon +
    3 * pad +
    Math.max(
      measureText(p.label, 13, "semibold"),
      p.sublabel ? measureText(p.sublabel, 11, "regular") : 0,
    );
  // Up to the next whole unit, so the label measured for the width fits on one line in it.
  const width = Math.min(SEQ.headMaxWidth, Math.max(SEQ.headMinWidth, Math.ceil(natural)));
  const textWidth = width - 3 * pad - icon;
  const label = textBlock(p.label, 13, "semibold", textWidth, 3);
  const sublabel =
    p.sublabel !== undefined && p.sublabel !== ""
      ? textBlock(p.sublabel, 11, "regular", textWidth, 3)
      : undefined;
  const content = label.box.height + (sublabel ? 2 + sublabel.box.height : 0);
  const height = Math.max(52, content + 2 * pad + 4);
  const block: NodeBox = {
    id: p.id,
    node: p,
    type: p.type,
    category: LEGEND_CATEGORY[p.type],
    box: { x: 0, y: 0, width, height },
    icon: { x: 0, y: 0, width: icon, height: icon },
    label,
  };
  if (sublabel) block.sublabel = sublabel;
  return { width, block };
}

/** A message label with the autonumber badge room in front of it. */
export interface LabelSize {
  block?: TextBlock;
  /** Width including the badge. */
  width: number;
  height: number;
}

export const BADGE_ROOM = 2 * SEQ.badge + 4;

/** Everything measured once, before any position is known. */
export interface Measured {
  heads: { width: number; block: NodeBox }[];
  labels: Map<Message, LabelSize>;
  notes: Map<Step, TextBlock>;
  dividers: Map<Step, TextBlock>;
  tabs: Map<Step, TextBlock>;
}

function labelOf(m: Message, numbered: boolean): LabelSize {
  const badge = numbered ? BADGE_ROOM : 0;
  if (m.label === undefined || m.label === "") {
    return { width: badge, height: numbered ? 2 * SEQ.badge : 0 };
  }
  const block = textBlock(m.label, SEQ.labelSize, "regular", SEQ.labelMaxWidth, 100);
  return {
    block,
    width: block.box.width + badge,
    height: Math.max(block.box.height, numbered ? 2 * SEQ.badge : 0),
  };
}

export function eachStep(steps: Step[], visit: (s: Step) => void): void {
  for (const s of steps) {
    visit(s);
    if (isFragment(s) || isBranched(s)) for (const b of frameBranches(s)) eachStep(b.steps, visit);
  }
}

export function measure(d: SequenceDiagram): Measured {
  const numbered = d.autonumber === true;
  const m: Measured = {
    heads: d.participants.map(measureHead),
    labels: new Map(),
    notes: new Map(),
    dividers: new Map(),
    tabs: new Map(),
  };
  eachStep(d.steps, (s) => {
    if (isMessage(s)) m.labels.set(s, labelOf(s, numbered));
    else if (s.kind === "note")
      m.notes.set(s, textBlock(s.text, SEQ.noteSize, "regular", SEQ.noteMaxWidth, 100));
    else if (s.kind === "divider")
      m.dividers.set(s, textBlock(s.label, SEQ.labelSize, "semibold", 320, 100));
    else if (isFragment(s) || isBranched(s))
      m.tabs.set(s, textBlock(s.kind, SEQ.tabSize, "semibold", 200, 1));
  });
  return m;
}
