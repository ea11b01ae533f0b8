import { fitToViewBox } from "../../core/fit.js";
import { round } from "../../core/geometry.js";
import { planLegend } from "../../core/legend.js";
import type { NodeBox } from "../../core/svg/boxes.js";
import { place, type TextBlock, textBlock } from "../../core/text/block.js";
import { type DrawnText, textCutWarnings } from "../../core/text/cuts.js";
import {
  type ActivationLayout,
  type GroupBoxLayout,
  type HeadLayout,
  type ParticipantLayout,
  SEQ,
  type SequenceLayout,
} from "./layout-types.js";
import { eachStep, type Measured } from "./measure.js";
import { isMessage, type SequenceDiagram } from "./model.js";
import { Placing, placeHead } from "./placing.js";
import { placeAcross } from "./spacing.js";

/**
 * Sequence layout: every position is computed from the description (nothing is placed by
 * hand), in three passes. Measure: every text is wrapped to a fixed width, never cut. Space:
 * lifeline gaps grow until every label, self-message, note and frame fits beside its
 * neighbours. Place: the steps go down the page one row each, so a message, a note, a frame's
 * tab or guard and a divider never share a row; frames take their width from what they hold
 * plus a padding per nesting level, so nested frames sit inside each other.
 * Pure and deterministic: every number is rounded to 1/100.
 */

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
    ...fitToViewBox(contentW, Math.max(bottom + SEQ.margin, SEQ.minHeight), d.meta.viewBox),
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
  const warnings = textCutWarnings(drawnText(s.m, boxLabels, layout));
  if (warnings.length > 0) layout.warnings = warnings;
  return layout;
}

/** Every text the drawing may cut short, with where the description holds it. */
function* drawnText(
  m: Measured,
  boxLabels: BoxLabel[],
  layout: SequenceLayout,
): Iterable<DrawnText> {
  yield [layout.title, "/meta/title"];
  yield [layout.subtitle, "/meta/subtitle"];
  for (const [i, h] of m.heads.entries()) {
    yield [h.block.label, `/participants/${i}/label`];
    yield [h.block.sublabel, `/participants/${i}/sublabel`];
  }
  for (const [i, b] of boxLabels.entries()) yield [b.label, `/boxes/${i}/label`];
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
