import { round } from "../../core/geometry.js";
import type { EdgeRole, Point } from "../../core/model.js";
import type { BackedLabel, NodeBox } from "../../core/svg/boxes.js";
import { brandMonogram } from "../../core/svg/brand.js";
import { lineHeight, place, type TextBlock, textBlock } from "../../core/text/block.js";
import {
  type DividerLayout,
  type FrameLayout,
  type HeadLayout,
  type MessageLayout,
  type NoteLayout,
  SEQ,
} from "./layout-types.js";
import { BADGE_ROOM, type LabelSize, type Measured } from "./measure.js";
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
import { type Across, noteSpan, type Span } from "./spacing.js";

/**
 * The third pass of the sequence layout (layout.ts): the steps placed down the page one row
 * each, with the activation bars they open and close.
 */

const DEFAULT_ROLE: Record<MessageKind, EdgeRole> = {
  call: "main",
  async: "async",
  reply: "return",
  create: "main",
  destroy: "main",
};

/** The header box placed with its centre at (cx, top + height / 2). */
export function placeHead(h: NodeBox, p: Participant, cx: number, top: number): HeadLayout {
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

/**
 * The state the placing stages share, as d2's sequence layout shares its diagram: where the
 * participants are across, the row `y` the next step starts on, the open activation bars, and
 * what has been placed so far. The steps go down the page one row each.
 */
export class Placing {
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
