import { type Box, round } from "../../core/geometry.js";
import { planLegend } from "../../core/legend.js";
import type { EdgeRole, Point } from "../../core/model.js";
import { LEGEND_CATEGORY } from "../../core/model.js";
import type { ArrowLine, BackedLabel, NodeBox } from "../../core/svg/boxes.js";
import { brandMonogram } from "../../core/svg/brand.js";
import type { Frame, LegendLayout } from "../../core/svg/document.js";
import { lineHeight, place, type TextBlock, textBlock } from "../../core/text/block.js";
import { measureText } from "../../core/text/measure.js";
import {
  type Branch,
  isBranched,
  isFragment,
  isMessage,
  type Message,
  type MessageKind,
  type Participant,
  type SequenceDiagram,
  type Step,
} from "./model.js";

/**
 * Sequence layout: every position is computed from the description (nothing is placed by
 * hand), in three passes. Measure: every text is wrapped to a fixed width, never cut. Space:
 * lifeline gaps grow until every label, self-message, note and frame fits beside its
 * neighbours. Place: the steps go down the page one row each, so a message, a note, a frame's
 * tab or guard and a divider never share a row; frames take their width from what they hold
 * plus a padding per nesting level, so nested frames sit inside each other.
 * Pure and deterministic: every number is rounded to 1/100.
 */

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
}

const DEFAULT_ROLE: Record<MessageKind, EdgeRole> = {
  call: "main",
  async: "async",
  reply: "return",
  create: "main",
  destroy: "main",
};

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

/** The header box placed with its centre at (cx, top + height / 2). */
function placeHead(h: NodeBox, p: Participant, cx: number, top: number): HeadLayout {
  const pad = 10;
  const { width, height } = h.box;
  const box = { x: round(cx - width / 2), y: round(top), width, height };
  const cy = top + height / 2;
  const icon = { x: round(box.x + pad), y: round(cy - 13), width: 26, height: 26 };
  const textX = box.x + 2 * pad + 26;
  const contentH = h.label.box.height + (h.sublabel ? 2 + h.sublabel.box.height : 0);
  let ty = cy - contentH / 2;
  const out: HeadLayout = { ...h, box, icon, label: place(h.label, textX, ty) };
  ty += h.label.box.height;
  if (h.sublabel) out.sublabel = place(h.sublabel, textX, ty + 2);
  if (p.brand) {
    const monogram = brandMonogram(p.brand);
    out.brand = {
      circle: {
        cx: round(box.x + width - 4),
        cy: round(box.y + 4),
        r: monogram.length > 2 ? 12 : 10,
      },
      monogram,
      size: monogram.length > 2 ? 8 : 9,
    };
  }
  return out;
}

/** A message label with the autonumber badge room in front of it. */
interface LabelSize {
  block?: TextBlock;
  /** Width including the badge. */
  width: number;
  height: number;
}

const BADGE_ROOM = 2 * SEQ.badge + 4;

/** Everything measured once, before any position is known. */
interface Measured {
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

function eachStep(steps: Step[], visit: (s: Step) => void): void {
  for (const s of steps) {
    visit(s);
    if (isFragment(s)) eachStep(s.steps, visit);
    else if (isBranched(s)) for (const b of s.branches) eachStep(b.steps, visit);
  }
}

function measure(d: SequenceDiagram): Measured {
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

/** How far right of its lifeline a self-message and its label reach. */
const selfReach = (label: LabelSize) =>
  SEQ.barWidth + SEQ.selfWidth + 6 + label.width + SEQ.labelPad / 2;

/** Lifeline offsets from the first one, grown until every constraint holds. */
function spacing(d: SequenceDiagram, m: Measured, index: Map<string, number>): number[] {
  const n = d.participants.length;
  const gaps = Array.from({ length: Math.max(0, n - 1) }, (_, i) => {
    const a = m.heads[i]?.width ?? 0;
    const b = m.heads[i + 1]?.width ?? 0;
    return (a + b) / 2 + SEQ.headGap;
  });
  const need: { i: number; j: number; d: number }[] = [];
  const at = (id: string) => index.get(id) ?? 0;
  eachStep(d.steps, (s) => {
    if (isMessage(s)) {
      const label = m.labels.get(s) as LabelSize;
      const a = at(s.from);
      const b = at(s.to);
      if (a === b) {
        if (a < n - 1) need.push({ i: a, j: a + 1, d: selfReach(label) + SEQ.barWidth });
      } else {
        // A create message ends at the new participant's header, not at its lifeline.
        const head = s.kind === "create" ? (m.heads[b]?.width ?? 0) / 2 : 0;
        need.push({
          i: Math.min(a, b),
          j: Math.max(a, b),
          d: label.width + 2 * SEQ.labelPad + 2 * SEQ.barWidth + head,
        });
      }
    } else if (s.kind === "note") {
      const block = m.notes.get(s) as TextBlock;
      const w = block.box.width + 2 * SEQ.notePad;
      const ids = s.participants.map(at);
      const lo = Math.min(...ids);
      const hi = Math.max(...ids);
      const position = s.position ?? "over";
      const clear = SEQ.barWidth + 6;
      if (position === "left" && lo > 0) need.push({ i: lo - 1, j: lo, d: w + 2 * clear });
      else if (position === "right" && lo < n - 1)
        need.push({ i: lo, j: lo + 1, d: w + 2 * clear });
      else if (position === "over") {
        if (hi > lo) need.push({ i: lo, j: hi, d: w - 2 * SEQ.noteOverhang });
        else {
          if (lo > 0) need.push({ i: lo - 1, j: lo, d: w / 2 + clear });
          if (lo < n - 1) need.push({ i: lo, j: lo + 1, d: w / 2 + clear });
        }
      }
    }
  });
  need.sort((p, q) => p.j - p.i - (q.j - q.i) || p.i - q.i || p.d - q.d);
  for (const c of need) {
    let dist = 0;
    for (let k = c.i; k < c.j; k++) dist += gaps[k] as number;
    if (dist >= c.d) continue;
    const extra = (c.d - dist) / (c.j - c.i);
    for (let k = c.i; k < c.j; k++) gaps[k] = (gaps[k] as number) + extra;
  }
  const xs = [0];
  for (const g of gaps) xs.push((xs.at(-1) as number) + g);
  return xs;
}

interface Span {
  x1: number;
  x2: number;
}

const union = (a: Span | undefined, b: Span | undefined): Span | undefined =>
  a === undefined
    ? b
    : b === undefined
      ? a
      : { x1: Math.min(a.x1, b.x1), x2: Math.max(a.x2, b.x2) };

/** The note's box, horizontally (its top is set when it is placed). */
function noteSpan(
  s: Step & { kind: "note" },
  block: TextBlock,
  xs: number[],
  at: (id: string) => number,
): Span {
  const w = block.box.width + 2 * SEQ.notePad;
  const ids = s.participants.map(at);
  const lo = xs[Math.min(...ids)] as number;
  const hi = xs[Math.max(...ids)] as number;
  const clear = SEQ.barWidth / 2 + 6;
  const position = s.position ?? "over";
  if (position === "left") return { x1: lo - clear - w, x2: lo - clear };
  if (position === "right") return { x1: lo + clear, x2: lo + clear + w };
  const width = Math.max(w, hi - lo + 2 * SEQ.noteOverhang);
  const mid = (lo + hi) / 2;
  return { x1: mid - width / 2, x2: mid + width / 2 };
}

/** Horizontal reach of a list of steps and of every frame inside (frames padded per level). */
function stepsSpan(
  steps: Step[],
  ctx: {
    xs: number[];
    m: Measured;
    at: (id: string) => number;
    all: Span;
    frames: Map<Step, Span>;
  },
): Span | undefined {
  let span: Span | undefined;
  for (const s of steps) {
    if (isMessage(s)) {
      const a = ctx.xs[ctx.at(s.from)] as number;
      const b = ctx.xs[ctx.at(s.to)] as number;
      const label = ctx.m.labels.get(s) as LabelSize;
      if (a === b) span = union(span, { x1: a - SEQ.barWidth, x2: a + selfReach(label) });
      else {
        const mid = (a + b) / 2;
        span = union(span, {
          x1: Math.min(a, b, mid - label.width / 2) - SEQ.barWidth,
          x2: Math.max(a, b, mid + label.width / 2) + SEQ.barWidth,
        });
      }
    } else if (s.kind === "activate" || s.kind === "deactivate") {
      const x = ctx.xs[ctx.at(s.participant)] as number;
      span = union(span, { x1: x - SEQ.barWidth, x2: x + SEQ.barWidth });
    } else if (s.kind === "note") {
      span = union(span, noteSpan(s, ctx.m.notes.get(s) as TextBlock, ctx.xs, ctx.at));
    } else if (s.kind === "divider") {
      span = union(span, ctx.all);
    } else if (isFragment(s) || isBranched(s)) {
      const branches: Branch[] = isFragment(s) ? [s] : s.branches;
      let inner: Span | undefined;
      for (const b of branches) inner = union(inner, stepsSpan(b.steps, ctx));
      const tab = ctx.m.tabs.get(s) as TextBlock;
      const tabW = tab.box.width + 20;
      const base = inner ?? { x1: 0, x2: 0 };
      let frame = { x1: base.x1 - SEQ.framePad, x2: base.x2 + SEQ.framePad };
      // Wide enough for the tab and the start of a guard.
      const minW = tabW + 80;
      if (frame.x2 - frame.x1 < minW) {
        const grow = (minW - (frame.x2 - frame.x1)) / 2;
        frame = { x1: frame.x1 - grow, x2: frame.x2 + grow };
      }
      ctx.frames.set(s, frame);
      span = union(span, frame);
    }
  }
  return span;
}

/** `block` on a background reaching `dx` and `dy` past its text, so it reads over lines. */
function backed(block: TextBlock, dx: number, dy: number): BackedLabel {
  const { x, y, width, height } = block.box;
  return {
    ...block,
    background: {
      x: round(x - dx),
      y: round(y - dy),
      width: round(width + 2 * dx),
      height: round(height + 2 * dy),
    },
  };
}

/** Lays out a validated sequence description. Pure: the same description gives the same numbers. */
export function layoutSequence(d: SequenceDiagram): SequenceLayout {
  const m = measure(d);
  const index = new Map(d.participants.map((p, i) => [p.id, i]));
  const at = (id: string) => index.get(id) ?? 0;
  const rel = spacing(d, m, index);
  const n = d.participants.length;
  const headsSpan: Span = {
    x1: -(m.heads[0]?.width ?? 0) / 2,
    x2: (rel[n - 1] as number) + (m.heads[n - 1]?.width ?? 0) / 2,
  };
  const framesRel = new Map<Step, Span>();
  const content = union(
    headsSpan,
    stepsSpan(d.steps, { xs: rel, m, at, all: headsSpan, frames: framesRel }),
  ) as Span;
  const boxes = d.boxes ?? [];
  const boxPad = boxes.length > 0 ? SEQ.boxPad : 0;
  const left = Math.min(content.x1, headsSpan.x1 - boxPad);
  const right = Math.max(content.x2, headsSpan.x2 + boxPad);
  let contentW = right - left + 2 * SEQ.margin;
  const extraW = Math.max(0, SEQ.minWidth - contentW);
  contentW += extraW;
  const shift = SEQ.margin - left + extraW / 2;
  const xs = rel.map((x) => x + shift);
  const sx = (s: Span): Span => ({ x1: s.x1 + shift, x2: s.x2 + shift });
  const all = sx(headsSpan);

  // Title.
  let y = SEQ.margin;
  const textWidth = contentW - 2 * SEQ.margin;
  const title = place(textBlock(d.meta.title, 22, "semibold", textWidth, 2), SEQ.margin, y);
  y += title.box.height;
  let subtitle: TextBlock | undefined;
  if (d.meta.subtitle) {
    subtitle = place(textBlock(d.meta.subtitle, 13, "regular", textWidth, 3), SEQ.margin, y + 4);
    y += 4 + subtitle.box.height;
  }
  y += 20;

  // Boxes take a label row above the headers.
  const boxLabels = boxes.map((b) => {
    const ids = b.participants.map(at);
    const lo = Math.min(...ids);
    const hi = Math.max(...ids);
    const x1 = (xs[lo] as number) - (m.heads[lo]?.width ?? 0) / 2 - SEQ.boxPad;
    const x2 = (xs[hi] as number) + (m.heads[hi]?.width ?? 0) / 2 + SEQ.boxPad;
    return {
      id: b.id,
      x1,
      x2,
      label: textBlock(b.label, SEQ.boxLabelSize, "semibold", x2 - x1 - 16, 3),
    };
  });
  const boxTop = y;
  if (boxes.length > 0) y += Math.max(...boxLabels.map((b) => b.label.box.height)) + 10;

  const created = new Set<string>();
  eachStep(d.steps, (s) => {
    if (isMessage(s) && s.kind === "create") created.add(s.to);
  });
  const headHeight = Math.max(...m.heads.map((h) => h.block.box.height));
  const headTop = y;
  const heads = new Map<string, HeadLayout>();
  const lifeTop = new Map<string, number>();
  d.participants.forEach((p, i) => {
    if (created.has(p.id)) return;
    const h = m.heads[i] as { block: NodeBox };
    const top = headTop + (headHeight - h.block.box.height);
    heads.set(p.id, placeHead(h.block, p, xs[i] as number, top));
    lifeTop.set(p.id, headTop + headHeight);
  });
  y = headTop + headHeight + 16;

  const numbered = d.autonumber === true;
  const messages: MessageLayout[] = [];
  const notes: NoteLayout[] = [];
  const frames: FrameLayout[] = [];
  const dividers: DividerLayout[] = [];
  // Open activation bars per participant, innermost last. A bar ends at the lowest point where
  // any branch ends it: in an alt or par every branch starts from the bars open before it.
  interface Bar {
    participant: string;
    level: number;
    start: number;
    end?: number;
  }
  const bars: Bar[] = [];
  let active = new Map<string, Bar[]>();
  const destroyed = new Map<string, Point>();
  const level = (id: string) => active.get(id)?.length ?? 0;
  const open = (id: string, at: number) => {
    const list = active.get(id) ?? [];
    const bar: Bar = { participant: id, level: list.length + 1, start: at };
    bars.push(bar);
    active.set(id, [...list, bar]);
  };
  const close = (id: string, at: number) => {
    const list = active.get(id);
    const bar = list?.at(-1);
    if (!list || !bar) return;
    bar.end = Math.max(bar.end ?? at, at);
    active.set(id, list.slice(0, -1));
  };
  /** Where a line meets participant `id`'s lifeline or innermost bar, coming from `side`. */
  const edgeX = (id: string, side: 1 | -1, lv = level(id)) => {
    const x = xs[index.get(id) ?? 0] as number;
    if (lv === 0) return x;
    return x + (lv - 1) * SEQ.barStep + (side * SEQ.barWidth) / 2;
  };

  const labelAt = (
    label: LabelSize,
    x: number,
    top: number,
    no: number,
  ): Pick<MessageLayout, "label" | "badge"> => {
    const out: Pick<MessageLayout, "label" | "badge"> = {};
    let tx = x;
    // The text sits at the bottom of the label's room, just above the line; the number badge
    // (a little taller than one line) is centred on the text's first line.
    const blockTop = top + label.height - (label.block?.box.height ?? 0);
    if (numbered) {
      out.badge = {
        cx: round(x + SEQ.badge),
        cy: round(label.block ? blockTop + lineHeight(SEQ.labelSize) / 2 : top + SEQ.badge),
        r: SEQ.badge,
        text: String(no),
      };
      tx += BADGE_ROOM;
    }
    if (label.block) out.label = backed(place(label.block, tx, blockTop), 3, 1);
    return out;
  };

  const placeMessage = (s: Message) => {
    const no = messages.length + 1;
    const label = m.labels.get(s) as LabelSize;
    const from = s.from;
    const to = s.to;
    const fx = xs[at(from)] as number;
    const tx = xs[at(to)] as number;
    // A self-message loops out to the right and back: its arrow points left.
    let points: Point[];
    let dx: 1 | -1;
    let labelled: Pick<MessageLayout, "label" | "badge">;
    if (from === to) {
      const loopH = Math.max(22, label.height + 6);
      const y1 = y + 4;
      const y2 = y1 + loopH;
      const startX = edgeX(from, 1);
      if (s.deactivate) close(from, y1);
      if (s.activate) open(to, y2 - 4);
      const endX = edgeX(to, 1);
      const outX = Math.max(startX, endX) + SEQ.selfWidth;
      points = [
        { x: round(startX), y: round(y1) },
        { x: round(outX), y: round(y1) },
        { x: round(outX), y: round(y2) },
        { x: round(endX), y: round(y2) },
      ];
      dx = -1;
      labelled = labelAt(label, outX + 6, y1 + (loopH - label.height) / 2, no);
      y = y2 + SEQ.rowGap;
    } else {
      const dir: 1 | -1 = tx > fx ? 1 : -1;
      let lineY = y + (label.height > 0 ? label.height + 4 : 0) + 6;
      const headOfCreated = s.kind === "create" ? m.heads[at(to)] : undefined;
      if (headOfCreated) lineY = Math.max(lineY, y + headOfCreated.block.box.height / 2 + 4);
      const startX = edgeX(from, dir as 1 | -1);
      if (s.deactivate) close(from, lineY);
      let endX: number;
      if (headOfCreated) {
        const p = d.participants[at(to)] as Participant;
        const head = placeHead(
          headOfCreated.block,
          p,
          tx,
          lineY - headOfCreated.block.box.height / 2,
        );
        heads.set(to, head);
        lifeTop.set(to, head.box.y + head.box.height);
        endX = dir === 1 ? head.box.x : head.box.x + head.box.width;
        if (s.activate) open(to, head.box.y + head.box.height);
      } else {
        if (s.activate) open(to, lineY);
        endX = edgeX(to, dir === 1 ? -1 : 1);
      }
      const mid = (startX + endX) / 2;
      points = [
        { x: round(startX), y: round(lineY) },
        { x: round(endX), y: round(lineY) },
      ];
      dx = dir;
      labelled = labelAt(label, mid - label.width / 2, lineY - 4 - label.height, no);
      if (s.kind === "destroy") destroyed.set(to, { x: round(tx), y: round(lineY) });
      y = lineY + (headOfCreated ? headOfCreated.block.box.height / 2 : 0) + SEQ.rowGap;
    }
    messages.push({
      id: s.id ?? `_m${no}`,
      number: no,
      message: s,
      kind: s.kind,
      role: s.role ?? DEFAULT_ROLE[s.kind],
      points,
      arrow: { tip: { ...(points.at(-1) as Point) }, dx, dy: 0 },
      ...labelled,
    });
  };

  const placeSteps = (steps: Step[], depth: number) => {
    for (const s of steps) {
      if (isMessage(s)) placeMessage(s);
      else if (s.kind === "activate") open(s.participant, y - 6);
      else if (s.kind === "deactivate") close(s.participant, y - 6);
      else if (s.kind === "note") {
        const block = m.notes.get(s) as TextBlock;
        const span = sx(noteSpan(s, block, rel, at));
        const h = block.box.height + 2 * SEQ.notePad;
        const box = {
          x: round(span.x1),
          y: round(y),
          width: round(span.x2 - span.x1),
          height: round(h),
        };
        notes.push({
          index: notes.length,
          participants: s.participants,
          box,
          text: place(block, span.x1 + (span.x2 - span.x1 - block.box.width) / 2, y + SEQ.notePad),
        });
        y += h + SEQ.rowGap;
      } else if (s.kind === "divider") {
        const block = m.dividers.get(s) as TextBlock;
        const cy = y + block.box.height / 2 + 6;
        const label = place(
          block,
          (all.x1 + all.x2) / 2 - block.box.width / 2,
          cy - block.box.height / 2,
        );
        dividers.push({
          y: round(cy),
          x1: round(all.x1),
          x2: round(all.x2),
          label: backed(label, 8, 3),
        });
        y = cy + block.box.height / 2 + 6 + SEQ.rowGap;
      } else if (isFragment(s) || isBranched(s)) {
        const span = sx(framesRel.get(s) as Span);
        const width = span.x2 - span.x1;
        const tabBlock = m.tabs.get(s) as TextBlock;
        const tabW = tabBlock.box.width + 20;
        const top = y;
        const branches: Branch[] = isFragment(s) ? [s] : s.branches;
        const guards: FrameLayout["guards"] = [];
        const separators: FrameLayout["separators"] = [];
        const guardAt = (guard: string | undefined, gx: number, gy: number, maxW: number) => {
          if (guard === undefined || guard === "") return 0;
          const block = place(textBlock(`[${guard}]`, SEQ.labelSize, "regular", maxW, 100), gx, gy);
          guards.push(backed(block, 3, 1));
          return block.box.height;
        };
        const tabH = 20;
        const firstH = guardAt(branches[0]?.guard, span.x1 + tabW + 8, top + 4, width - tabW - 16);
        y = top + Math.max(tabH, firstH + 8) + 8;
        const before = active;
        let afterFirst: Map<string, Bar[]> | undefined;
        branches.forEach((b, k) => {
          active = new Map(before);
          if (k > 0) {
            separators.push({ y: round(y), x1: round(span.x1), x2: round(span.x2) });
            const h = guardAt(b.guard, span.x1 + 8, y + 4, width - 16);
            y += (h > 0 ? h + 8 : 0) + 8;
          }
          placeSteps(b.steps, depth + 1);
          afterFirst ??= active;
        });
        active = afterFirst ?? before;
        const bottom = y - SEQ.rowGap + 10;
        frames.push({
          id: s.id ?? `_f${frames.length + 1}`,
          kind: s.kind,
          depth,
          box: {
            x: round(span.x1),
            y: round(top),
            width: round(width),
            height: round(bottom - top),
          },
          tab: { x: round(span.x1), y: round(top), width: round(tabW), height: tabH },
          tabLabel: place(tabBlock, span.x1 + 8, top + (tabH - tabBlock.box.height) / 2),
          guards,
          separators,
        });
        y = bottom + SEQ.rowGap;
      }
    }
  };
  placeSteps(d.steps, 0);

  const lifeEnd = y + 6;
  for (const id of [...active.keys()]) while (level(id) > 0) close(id, lifeEnd);
  const activations: ActivationLayout[] = bars.map((b) => {
    const x = (xs[at(b.participant)] as number) - SEQ.barWidth / 2 + (b.level - 1) * SEQ.barStep;
    const end = b.end ?? lifeEnd;
    return {
      participant: b.participant,
      level: b.level,
      box: {
        x: round(x),
        y: round(b.start),
        width: SEQ.barWidth,
        height: round(Math.max(end - b.start, 8)),
      },
    };
  });
  const long = lifeEnd - (headTop + headHeight) > SEQ.repeatHeadsAfter;
  const participants: ParticipantLayout[] = d.participants.map((p, i) => {
    const x = xs[i] as number;
    const head = heads.get(p.id) as HeadLayout;
    const end = destroyed.get(p.id);
    const out: ParticipantLayout = {
      id: p.id,
      index: i,
      x: round(x),
      head,
      lifeline: {
        x: round(x),
        y1: round(lifeTop.get(p.id) ?? headTop),
        y2: round(end ? end.y : lifeEnd),
      },
    };
    if (end) out.destroyed = end;
    else if (long) {
      const h = m.heads[i] as { block: NodeBox };
      out.foot = placeHead(h.block, p, x, lifeEnd);
    }
    return out;
  });
  let bottom = lifeEnd + (long ? headHeight : 0);
  const groupBoxes: GroupBoxLayout[] = boxLabels.map((b) => ({
    id: b.id,
    box: {
      x: round(b.x1),
      y: round(boxTop),
      width: round(b.x2 - b.x1),
      height: round(bottom + SEQ.boxPad - boxTop),
    },
    label: place(b.label, b.x1 + 8, boxTop + 5),
  }));
  if (boxes.length > 0) bottom += SEQ.boxPad;
  // The legend names the participants' categories. Line styles are left out: a sequence
  // draws them by message kind, which the workflow's role samples would misdescribe.
  const legend = planLegend(
    d.meta,
    d.participants.map((p) => p.type),
    [],
  ).place(SEQ.margin, bottom + SEQ.legendGap, contentW - 2 * SEQ.margin);
  if (legend) bottom = legend.box.y + legend.box.height;

  const contentH = Math.max(bottom + SEQ.margin, SEQ.minHeight);
  const requested = d.meta.viewBox;
  const width = requested ? requested[0] : contentW;
  const height = requested ? requested[1] : contentH;
  const scale = Math.min(1, width / contentW, height / contentH);
  const layout: SequenceLayout = {
    width: round(width),
    height: round(height),
    scale: round(scale * 10000) / 10000,
    offset: { x: round((width - contentW * scale) / 2), y: round((height - contentH * scale) / 2) },
    title,
    boxes: groupBoxes,
    participants,
    activations,
    messages,
    notes,
    frames: frames.sort((a, b) => a.depth - b.depth),
    dividers,
  };
  if (subtitle) layout.subtitle = subtitle;
  if (legend) layout.legend = legend;
  return layout;
}
