import type { TextBlock } from "../../core/text/block.js";
import { SEQ } from "./layout-types.js";
import { eachStep, type LabelSize, type Measured, measure } from "./measure.js";
import {
  type Branch,
  frameBranches,
  isBranched,
  isFragment,
  isMessage,
  type SequenceDiagram,
  type Step,
} from "./model.js";

/**
 * The second pass of the sequence layout (layout.ts): lifeline gaps grown until every label,
 * self-message, note and frame fits beside its neighbours, and the page width that follows.
 */

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

export interface Span {
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
export function noteSpan(
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

/** Where the participants go across the page, and how wide the drawing is. */
export interface Across {
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

export function placeAcross(d: SequenceDiagram): Across {
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
