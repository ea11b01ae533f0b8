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
  type BranchedFragment,
  type Divider,
  type Fragment,
  frameBranches,
  isBranched,
  isFragment,
  isMessage,
  type Message,
  type MessageKind,
  type Note,
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
    if (isFragment(s) || isBranched(s)) for (const b of frameBranches(s)) eachStep(b.steps, visit);
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
      const branches: Branch[] = frameBranches(s);
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

/** An activation bar; it ends at the lowest point where any branch ends it. */
interface Bar {
  participant: string;
  level: number;
  start: number;
  end?: number;
}

/** Where the participants go across the page, and how wide the drawing is. */
interface Across {
  m: Measured;
  index: Map<string, number>;
  /** Lifeline offsets from the first one, before the shift to the page. */
  rel: number[];
  xs: number[];
  shift: number;
  /** From the first head's left to the last head's right, on the page. */
  all: Span;
  /** Each frame's span, before the shift. */
  framesRel: Map<Step, Span>;
  contentW: number;
}

function placeAcross(d: SequenceDiagram): Across {
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
  const boxPad = (d.boxes ?? []).length > 0 ? SEQ.boxPad : 0;
  const left = Math.min(content.x1, headsSpan.x1 - boxPad);
  const right = Math.max(content.x2, headsSpan.x2 + boxPad);
  let contentW = right - left + 2 * SEQ.margin;
  const extraW = Math.max(0, SEQ.minWidth - contentW);
  contentW += extraW;
  const shift = SEQ.margin - left + extraW / 2;
  const xs = rel.map((x) => x + shift);
  const all = { x1: headsSpan.x1 + shift, x2: headsSpan.x2 + shift };
  return { m, index, rel, xs, shift, all, framesRel, contentW };
}

/**
 * The state the placing stages share, as d2's sequence layout shares its diagram: where the
 * participants are across, the row `y` the next step starts on, the open activation bars, and
 * what has been placed so far. The steps go down the page one row each.
 */
class Placing {
  y: number = SEQ.margin;
  headTop = 0;
  headHeight = 0;
  readonly heads = new Map<string, HeadLayout>();
  readonly lifeTop = new Map<string, number>();
  readonly messages: MessageLayout[] = [];
  readonly notes: NoteLayout[] = [];
  readonly frames: FrameLayout[] = [];
  readonly dividers: DividerLayout[] = [];
  readonly bars: Bar[] = [];
  /** Open bars per participant, innermost last. */
  active = new Map<string, Bar[]>();
  readonly destroyed = new Map<string, Point>();
  readonly m: Measured;
  readonly xs: number[];

  constructor(
    readonly d: SequenceDiagram,
    readonly across: Across,
  ) {
    this.m = across.m;
    this.xs = across.xs;
  }

  at = (id: string) => this.across.index.get(id) ?? 0;
  sx = (s: Span): Span => ({ x1: s.x1 + this.across.shift, x2: s.x2 + this.across.shift });
  level = (id: string) => this.active.get(id)?.length ?? 0;

  open(id: string, at: number): void {
    const list = this.active.get(id) ?? [];
    const bar: Bar = { participant: id, level: list.length + 1, start: at };
    this.bars.push(bar);
    this.active.set(id, [...list, bar]);
  }

  close(id: string, at: number): void {
    const list = this.active.get(id);
    const bar = list?.at(-1);
    if (!list || !bar) return;
    bar.end = Math.max(bar.end ?? at, at);
    this.active.set(id, list.slice(0, -1));
  }

  /** Where a line meets participant `id`'s lifeline or innermost bar, coming from `side`. */
  edgeX(id: string, side: 1 | -1, lv = this.level(id)): number {
    const x = this.xs[this.at(id)] as number;
    if (lv === 0) return x;
    return x + (lv - 1) * SEQ.barStep + (side * SEQ.barWidth) / 2;
  }

  placeSteps(steps: Step[], depth: number): void {
    for (const s of steps) {
      if (isMessage(s)) this.placeMessage(s);
      else if (s.kind === "activate") this.open(s.participant, this.y - 6);
      else if (s.kind === "deactivate") this.close(s.participant, this.y - 6);
      else if (s.kind === "note") this.placeNote(s);
      else if (s.kind === "divider") this.placeDivider(s);
      else if (isFragment(s) || isBranched(s)) this.placeFrame(s, depth);
    }
  }

  /** A message label's text and number badge, in the room above its line starting at `top`. */
  labelAt(label: LabelSize, x: number, top: number, no: number): MessageLabels {
    const out: MessageLabels = {};
    let tx = x;
    // The text sits at the bottom of the label's room, just above the line; the number badge
    // (a little taller than one line) is centred on the text's first line.
    const blockTop = top + label.height - (label.block?.box.height ?? 0);
    if (this.d.autonumber === true) {
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
  }

  placeMessage(s: Message): void {
    const no = this.messages.length + 1;
    const label = this.m.labels.get(s) as LabelSize;
    const line = s.from === s.to ? this.selfLine(s, label, no) : this.lineBetween(s, label, no);
    this.messages.push({
      id: s.id ?? `_m${no}`,
      number: no,
      message: s,
      kind: s.kind,
      role: s.role ?? DEFAULT_ROLE[s.kind],
      points: line.points,
      arrow: { tip: { ...(line.points.at(-1) as Point) }, dx: line.dx, dy: 0 },
      ...line.labelled,
    });
  }

  /** A self-message loops out to the right and back: its arrow points left. */
  selfLine(s: Message, label: LabelSize, no: number): MessageLine {
    const loopH = Math.max(22, label.height + 6);
    const y1 = this.y + 4;
    const y2 = y1 + loopH;
    const startX = this.edgeX(s.from, 1);
    if (s.deactivate) this.close(s.from, y1);
    if (s.activate) this.open(s.to, y2 - 4);
    const endX = this.edgeX(s.to, 1);
    const outX = Math.max(startX, endX) + SEQ.selfWidth;
    const points = [
      { x: round(startX), y: round(y1) },
      { x: round(outX), y: round(y1) },
      { x: round(outX), y: round(y2) },
      { x: round(endX), y: round(y2) },
    ];
    const labelled = this.labelAt(label, outX + 6, y1 + (loopH - label.height) / 2, no);
    this.y = y2 + SEQ.rowGap;
    return { points, dx: -1, labelled };
  }

  /** A message between two lifelines; a create message ends at the head it places. */
  lineBetween(s: Message, label: LabelSize, no: number): MessageLine {
    const { from, to } = s;
    const fx = this.xs[this.at(from)] as number;
    const tx = this.xs[this.at(to)] as number;
    const dir: 1 | -1 = tx > fx ? 1 : -1;
    let lineY = this.y + (label.height > 0 ? label.height + 4 : 0) + 6;
    const headOfCreated = s.kind === "create" ? this.m.heads[this.at(to)] : undefined;
    if (headOfCreated) lineY = Math.max(lineY, this.y + headOfCreated.block.box.height / 2 + 4);
    const startX = this.edgeX(from, dir as 1 | -1);
    if (s.deactivate) this.close(from, lineY);
    let endX: number;
    if (headOfCreated) {
      const p = this.d.participants[this.at(to)] as Participant;
      const head = placeHead(
        headOfCreated.block,
        p,
        tx,
        lineY - headOfCreated.block.box.height / 2,
      );
      this.heads.set(to, head);
      this.lifeTop.set(to, head.box.y + head.box.height);
      endX = dir === 1 ? head.box.x : head.box.x + head.box.width;
      if (s.activate) this.open(to, head.box.y + head.box.height);
    } else {
      if (s.activate) this.open(to, lineY);
      endX = this.edgeX(to, dir === 1 ? -1 : 1);
    }
    const mid = (startX + endX) / 2;
    const points = [
      { x: round(startX), y: round(lineY) },
      { x: round(endX), y: round(lineY) },
    ];
    const labelled = this.labelAt(label, mid - label.width / 2, lineY - 4 - label.height, no);
    if (s.kind === "destroy") this.destroyed.set(to, { x: round(tx), y: round(lineY) });
    this.y = lineY + (headOfCreated ? headOfCreated.block.box.height / 2 : 0) + SEQ.rowGap;
    return { points, dx: dir, labelled };
  }

  placeNote(s: Note): void {
    const block = this.m.notes.get(s) as TextBlock;
    const span = this.sx(noteSpan(s, block, this.across.rel, this.at));
    const h = block.box.height + 2 * SEQ.notePad;
    const box = {
      x: round(span.x1),
      y: round(this.y),
      width: round(span.x2 - span.x1),
      height: round(h),
    };
    this.notes.push({
      index: this.notes.length,
      participants: s.participants,
      box,
      text: place(block, span.x1 + (span.x2 - span.x1 - block.box.width) / 2, this.y + SEQ.notePad),
    });
    this.y += h + SEQ.rowGap;
  }

  placeDivider(s: Divider): void {
    const { all } = this.across;
    const block = this.m.dividers.get(s) as TextBlock;
    const cy = this.y + block.box.height / 2 + 6;
    const label = place(
      block,
      (all.x1 + all.x2) / 2 - block.box.width / 2,
      cy - block.box.height / 2,
    );
    this.dividers.push({
      y: round(cy),
      x1: round(all.x1),
      x2: round(all.x2),
      label: backed(label, 8, 3),
    });
    this.y = cy + block.box.height / 2 + 6 + SEQ.rowGap;
  }

  /**
   * A fragment or a branched frame: its tab and first guard, then each branch under a
   * separator. In an alt or par every branch starts from the bars open before it.
   */
  placeFrame(s: Fragment | BranchedFragment, depth: number): void {
    const span = this.sx(this.across.framesRel.get(s) as Span);
    const width = span.x2 - span.x1;
    const tabBlock = this.m.tabs.get(s) as TextBlock;
    const tabW = tabBlock.box.width + 20;
    const top = this.y;
    const branches: Branch[] = frameBranches(s);
    const guards: FrameLayout["guards"] = [];
    const separators: FrameLayout["separators"] = [];
    const guardAt = (guard: string | undefined, gx: number, gy: number, maxW: number) => {
      if (guard === undefined || guard === "") return 0;
      // A critical frame's later branches are its options: each says so before its guard.
      const text =
        s.kind === "critical" && guards.length + separators.length > 0
          ? `option [${guard}]`
          : `[${guard}]`;
      const block = place(textBlock(text, SEQ.labelSize, "regular", maxW, 100), gx, gy);
      guards.push(backed(block, 3, 1));
      return block.box.height;
    };
    const tabH = 20;
    const firstH = guardAt(branches[0]?.guard, span.x1 + tabW + 8, top + 4, width - tabW - 16);
    this.y = top + Math.max(tabH, firstH + 8) + 8;
    const before = this.active;
    let afterFirst: Map<string, Bar[]> | undefined;
    branches.forEach((b, k) => {
      this.active = new Map(before);
      if (k > 0) {
        separators.push({ y: round(this.y), x1: round(span.x1), x2: round(span.x2) });
        const h = guardAt(b.guard, span.x1 + 8, this.y + 4, width - 16);
        this.y += (h > 0 ? h + 8 : 0) + 8;
      }
      this.placeSteps(b.steps, depth + 1);
      afterFirst ??= this.active;
    });
    this.active = afterFirst ?? before;
    const bottom = this.y - SEQ.rowGap + 10;
    this.frames.push({
      id: s.id ?? `_f${this.frames.length + 1}`,
      kind: s.kind,
      depth,
      box: { x: round(span.x1), y: round(top), width: round(width), height: round(bottom - top) },
      tab: { x: round(span.x1), y: round(top), width: round(tabW), height: tabH },
      tabLabel: place(tabBlock, span.x1 + 8, top + (tabH - tabBlock.box.height) / 2),
      guards,
      separators,
    });
    this.y = bottom + SEQ.rowGap;
  }
}

type MessageLabels = Pick<MessageLayout, "label" | "badge">;

interface MessageLine {
  points: Point[];
  dx: 1 | -1;
  labelled: MessageLabels;
}

/** Lays out a validated sequence description. Pure: the same description gives the same numbers. */
export function layoutSequence(d: SequenceDiagram): SequenceLayout {
  const s = new Placing(d, placeAcross(d));
  const titles = placeTitles(s);
  const boxLabels = measureBoxLabels(s);
  const boxTop = s.y;
  if (boxLabels.length > 0) s.y += Math.max(...boxLabels.map((b) => b.label.box.height)) + 10;
  placeHeads(s);
  s.placeSteps(d.steps, 0);
  const lifeEnd = closeBars(s);
  const long = lifeEnd - (s.headTop + s.headHeight) > SEQ.repeatHeadsAfter;
  const participants = placeLifelines(s, lifeEnd, long);
  let bottom = lifeEnd + (long ? s.headHeight : 0);
  const boxes = placeBoxes(boxLabels, boxTop, bottom);
  if (boxes.length > 0) bottom += SEQ.boxPad;
  // The legend names the participants' categories. Line styles are left out: a sequence
  // draws them by message kind, which the workflow's role samples would misdescribe.
  const contentW = s.across.contentW;
  const legend = planLegend(
    d.meta,
    d.participants.map((p) => p.type),
    [],
  ).place(SEQ.margin, bottom + SEQ.legendGap, contentW - 2 * SEQ.margin);
  if (legend) bottom = legend.box.y + legend.box.height;
  const layout: SequenceLayout = {
    ...fitToViewBox(d, contentW, Math.max(bottom + SEQ.margin, SEQ.minHeight)),
    title: titles.title,
    boxes,
    participants,
    activations: placeActivations(s, lifeEnd),
    messages: s.messages,
    notes: s.notes,
    frames: s.frames.sort((a, b) => a.depth - b.depth),
    dividers: s.dividers,
  };
  if (titles.subtitle) layout.subtitle = titles.subtitle;
  if (legend) layout.legend = legend;
  return layout;
}

function placeTitles(s: Placing): { title: TextBlock; subtitle?: TextBlock } {
  const { meta } = s.d;
  const textWidth = s.across.contentW - 2 * SEQ.margin;
  const title = place(textBlock(meta.title, 22, "semibold", textWidth, 2), SEQ.margin, s.y);
  s.y += title.box.height;
  let subtitle: TextBlock | undefined;
  if (meta.subtitle) {
    subtitle = place(textBlock(meta.subtitle, 13, "regular", textWidth, 3), SEQ.margin, s.y + 4);
    s.y += 4 + subtitle.box.height;
  }
  s.y += 20;
  return subtitle ? { title, subtitle } : { title };
}

interface BoxLabel {
  id: string;
  x1: number;
  x2: number;
  label: TextBlock;
}

/** Boxes take a label row above the headers. */
function measureBoxLabels(s: Placing): BoxLabel[] {
  const { heads } = s.m;
  return (s.d.boxes ?? []).map((b) => {
    const ids = b.participants.map(s.at);
    const lo = Math.min(...ids);
    const hi = Math.max(...ids);
    const x1 = (s.xs[lo] as number) - (heads[lo]?.width ?? 0) / 2 - SEQ.boxPad;
    const x2 = (s.xs[hi] as number) + (heads[hi]?.width ?? 0) / 2 + SEQ.boxPad;
    return {
      id: b.id,
      x1,
      x2,
      label: textBlock(b.label, SEQ.boxLabelSize, "semibold", x2 - x1 - 16, 3),
    };
  });
}

/** The heads on one row, bottom-aligned; a created participant's head waits for its message. */
function placeHeads(s: Placing): void {
  const created = new Set<string>();
  eachStep(s.d.steps, (step) => {
    if (isMessage(step) && step.kind === "create") created.add(step.to);
  });
  s.headHeight = Math.max(...s.m.heads.map((h) => h.block.box.height));
  s.headTop = s.y;
  s.d.participants.forEach((p, i) => {
    if (created.has(p.id)) return;
    const h = s.m.heads[i] as { block: NodeBox };
    const top = s.headTop + (s.headHeight - h.block.box.height);
    s.heads.set(p.id, placeHead(h.block, p, s.xs[i] as number, top));
    s.lifeTop.set(p.id, s.headTop + s.headHeight);
  });
  s.y = s.headTop + s.headHeight + 16;
}

/** Closes every bar still open where the lifelines end, and returns that end. */
function closeBars(s: Placing): number {
  const lifeEnd = s.y + 6;
  for (const id of [...s.active.keys()]) while (s.level(id) > 0) s.close(id, lifeEnd);
  return lifeEnd;
}

function placeActivations(s: Placing, lifeEnd: number): ActivationLayout[] {
  return s.bars.map((b) => {
    const x =
      (s.xs[s.at(b.participant)] as number) - SEQ.barWidth / 2 + (b.level - 1) * SEQ.barStep;
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
}

/** Each participant's lifeline, ended by a destroy; a long diagram repeats the heads below. */
function placeLifelines(s: Placing, lifeEnd: number, long: boolean): ParticipantLayout[] {
  return s.d.participants.map((p, i) => {
    const x = s.xs[i] as number;
    const head = s.heads.get(p.id) as HeadLayout;
    const end = s.destroyed.get(p.id);
    const out: ParticipantLayout = {
      id: p.id,
      index: i,
      x: round(x),
      head,
      lifeline: {
        x: round(x),
        y1: round(s.lifeTop.get(p.id) ?? s.headTop),
        y2: round(end ? end.y : lifeEnd),
      },
    };
    if (end) out.destroyed = end;
    else if (long) {
      const h = s.m.heads[i] as { block: NodeBox };
      out.foot = placeHead(h.block, p, x, lifeEnd);
    }
    return out;
  });
}

function placeBoxes(labels: BoxLabel[], top: number, bottom: number): GroupBoxLayout[] {
  return labels.map((b) => ({
    id: b.id,
    box: {
      x: round(b.x1),
      y: round(top),
      width: round(b.x2 - b.x1),
      height: round(bottom + SEQ.boxPad - top),
    },
    label: place(b.label, b.x1 + 8, top + 5),
  }));
}

/** The drawing's size: meta.viewBox when given, the content scaled down to fit it. */
function fitToViewBox(d: SequenceDiagram, contentW: number, contentH: number) {
  const requested = d.meta.viewBox;
  const width = requested ? requested[0] : contentW;
  const height = requested ? requested[1] : contentH;
  const scale = Math.min(1, width / contentW, height / contentH);
  return {
    width: round(width),
    height: round(height),
    scale: round(scale * 10000) / 10000,
    offset: { x: round((width - contentW * scale) / 2), y: round((height - contentH * scale) / 2) },
  };
}
