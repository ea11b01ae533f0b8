import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateSequence } from "../bench/sequence-workload.mjs";
import type { RenderOptions } from "../src/core/diagram-type.js";
import {
  boxesOverlap,
  boxInside,
  inflate,
  outlineCrosses,
  segmentHitsBox,
  segmentMeetsBox,
} from "../src/core/geometry.js";
import { VISUAL_PRESETS } from "../src/core/model.js";
import { type } from "../src/types/sequence/index.js";
import { layoutSequence } from "../src/types/sequence/layout.js";
import type { SequenceDiagram } from "../src/types/sequence/model.js";
import { renderSequenceSvg } from "../src/types/sequence/render.js";
import { validateAs } from "../src/validate/as-type.js";
import { EXAMPLES_DIR, TESTDATA_DIR } from "./support/cases.js";
import { golden } from "./support/golden.js";
import { base } from "./support/sequence-base.js";
import { readSvg, type SvgGeometry, type SvgText } from "./support/svg-geometry.js";

const EXAMPLES = ["partner-order-sequence", "token-refresh-sequence"];

function load(name: string): SequenceDiagram {
  const file = join(EXAMPLES_DIR, `${name}.json`);
  const result = validateAs<SequenceDiagram>(type, readFileSync(file, "utf8"), { file });
  if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.diagram;
}

const render = (d: SequenceDiagram, options: RenderOptions = {}) =>
  renderSequenceSvg(d, layoutSequence(d), options);

describe("sequence golden SVGs", () => {
  for (const name of EXAMPLES) {
    it(`${name}, as described`, () => golden(name, "exp.svg", render(load(name))));
  }
  for (const preset of VISUAL_PRESETS) {
    it(`partner-order-sequence in ${preset}`, () =>
      golden(
        "partner-order-sequence",
        `exp.${preset}.svg`,
        render(load("partner-order-sequence"), { preset, quality: "standard" }),
      ));
  }
  it("critical with options and a standalone reply", () => {
    const file = join(TESTDATA_DIR, "sequence-critical", "description.json");
    const result = validateAs<SequenceDiagram>(type, readFileSync(file, "utf8"), { file });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const svg = render(result.diagram);
    golden("sequence-critical", "exp.svg", svg);
    // Each option is its own branch under a separator, named as an option.
    expect(svg).toContain("option [network timeout]");
    expect(svg).toContain("option [credentials rejected]");
  });
  it("partner-order-sequence, showcase", () =>
    golden(
      "partner-order-sequence",
      "exp.showcase.svg",
      render(load("partner-order-sequence"), { quality: "showcase" }),
    ));
});

const large = () => generateSequence({ participants: 12, messages: 200 });

/** Every way a drawing breaks the layout's promises; empty when it keeps them all. */
function faults(g: SvgGeometry): string[] {
  const found: string[] = [];
  const name = (t: SvgText) =>
    `"${t.lines.join(" ")}" (${t.owner?.kind ?? "title"} ${t.owner?.id ?? ""})`;
  const same = (a: SvgText["owner"], b: SvgText["owner"]) =>
    a !== undefined && b !== undefined && a.kind === b.kind && a.id === b.id;
  // Inside the drawing.
  for (const t of g.texts) {
    const b = t.box;
    if (b.x < 0 || b.y < 0 || b.x + b.width > g.width || b.y + b.height > g.height) {
      found.push(`${name(t)} runs past the border`);
    }
  }
  // No text over another text.
  for (let i = 0; i < g.texts.length; i++) {
    for (let j = i + 1; j < g.texts.length; j++) {
      const a = g.texts[i] as SvgText;
      const b = g.texts[j] as SvgText;
      if (boxesOverlap(a.box, b.box)) found.push(`${name(a)} overlaps ${name(b)}`);
    }
  }
  // No text over a shape of another part: headers, notes, frame borders and tabs, divider
  // labels and message lines. Lifelines and their activation bars are guides a label may
  // cross: labels are drawn over them on their own background.
  for (const t of g.texts) {
    for (const s of g.shapes) {
      if (s.owner === undefined || same(s.owner, t.owner)) continue;
      if (s.owner?.kind === "box" && s.tag === "rect") continue; // boxes hold their participants
      const hit =
        s.segments.length > 0 && s.owner?.kind !== "note"
          ? s.segments.some(([p, q]) => segmentHitsBox(p, q, t.box))
          : s.fill === "none" && s.tag === "rect"
            ? outlineCrosses(t.box, s.box) // a frame border: only its four sides are drawn
            : boxesOverlap(s.box, t.box);
      if (hit)
        found.push(
          `${name(t)} is drawn over a ${s.tag} of ${s.owner?.kind ?? s.class} ${s.owner?.id ?? ""}`,
        );
    }
  }
  // Every message label (with its number) touches its own line.
  const messageTexts = new Map<string, SvgText[]>();
  for (const t of g.texts) {
    if (t.owner?.kind === "message")
      messageTexts.set(t.owner.id, [...(messageTexts.get(t.owner.id) ?? []), t]);
  }
  for (const [id, texts] of messageTexts) {
    const line = g.shapes.find(
      (s) =>
        s.owner?.kind === "message" &&
        s.owner.id === id &&
        s.class?.split(" ").includes("message-line"),
    );
    // The number badge's circle is part of the label.
    const badges = g.shapes.filter(
      (s) => s.owner?.kind === "message" && s.owner.id === id && s.tag === "circle",
    );
    const parts = [...texts, ...badges];
    const x1 = Math.min(...parts.map((t) => t.box.x));
    const y1 = Math.min(...parts.map((t) => t.box.y));
    const x2 = Math.max(...parts.map((t) => t.box.x + t.box.width));
    const y2 = Math.max(...parts.map((t) => t.box.y + t.box.height));
    // The label sits just above its line (a self-message's beside its loop), 4 to 6 units clear;
    // one unit more absorbs the rounding of the numbers in the SVG.
    const label = inflate({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 }, 7);
    if (!line?.segments.some(([p, q]) => segmentMeetsBox(p, q, label))) {
      found.push(`the label of message ${id} does not touch its line`);
    }
  }
  // Frames nest: two frames are apart or one holds the other.
  const frames = g.shapes.filter(
    (s) => s.owner?.kind === "fragment" && s.tag === "rect" && s.fill === "none",
  );
  for (let i = 0; i < frames.length; i++) {
    for (let j = i + 1; j < frames.length; j++) {
      const a = (frames[i] as (typeof frames)[number]).box;
      const b = (frames[j] as (typeof frames)[number]).box;
      if (boxesOverlap(a, b) && !boxInside(a, b) && !boxInside(b, a)) {
        found.push(`frames ${frames[i]?.owner?.id} and ${frames[j]?.owner?.id} cross`);
      }
    }
  }
  return found;
}

describe("sequence geometry, read back from the SVG", () => {
  const cases: [string, () => SequenceDiagram][] = [
    ...EXAMPLES.map((n): [string, () => SequenceDiagram] => [n, () => load(n)]),
    ["generated 12 participants, 200 messages", large],
    [
      "every field once (the conformance base, at its natural size)",
      () => {
        const d = base();
        delete d.meta.viewBox;
        return d;
      },
    ],
    [
      "one participant, a wide note and a create after everything",
      (): SequenceDiagram => ({
        schema_version: 1,
        diagram_type: "sequence",
        meta: { title: "Alone" },
        participants: [
          { id: "solo", type: "service", label: "Solo" },
          { id: "late", type: "queue", label: "Late arrival with a long name" },
        ],
        steps: [
          {
            kind: "note",
            participants: ["solo"],
            text: "A note much wider than its participant ".repeat(3),
          },
          { kind: "call", from: "solo", to: "solo", label: "think", activate: true },
          { kind: "deactivate", participant: "solo" },
          { kind: "create", from: "solo", to: "late", label: "make" },
          {
            kind: "note",
            position: "right",
            participants: ["late"],
            text: "right of the last one",
          },
          { kind: "destroy", from: "solo", to: "late" },
        ],
      }),
    ],
  ];
  for (const [label, make] of cases) {
    it(`${label}: no overlap, labels on their lines, frames nested, nothing past the border`, () => {
      const g = readSvg(render(make()));
      expect(g.texts.length).toBeGreaterThan(5);
      expect(faults(g)).toEqual([]);
    });
  }

  it("in every preset and the showcase profile the geometry is the same", () => {
    const d = load("partner-order-sequence");
    const base = layoutSequence(d);
    for (const preset of VISUAL_PRESETS) {
      const svg = renderSequenceSvg(d, base, { preset, quality: "showcase" });
      expect(faults(readSvg(svg))).toEqual([]);
    }
  });

  it("the check catches a label pushed off its line and two frames crossing", () => {
    const d = load("token-refresh-sequence");
    const l = layoutSequence(d);
    const m = l.messages[0];
    if (!m?.label) throw new Error("the first message has a label");
    m.label.box.y -= 40;
    if (m.badge) m.badge.cy -= 40;
    const f = l.frames[1];
    const f0 = l.frames[0];
    if (!f || !f0) throw new Error("two frames");
    f.box.y = f0.box.y + 10;
    f.box.x = f0.box.x - 20;
    const found = faults(readSvg(renderSequenceSvg(d, l)));
    expect(found.some((s) => s.includes("does not touch its line"))).toBe(true);
    expect(found.some((s) => s.includes("cross"))).toBe(true);
  });

  it("long messages widen the gap between lifelines instead of being cut", () => {
    const d = load("token-refresh-sequence");
    const before = layoutSequence(d).participants;
    const long = structuredClone(d);
    const first = long.steps[0];
    if (first?.kind !== "call") throw new Error("the first step is a call");
    first.label = `${first.label} ${"and a good deal more text ".repeat(8)}`;
    const after = layoutSequence(long);
    const gap = (ps: typeof before) => (ps[1]?.x ?? 0) - (ps[0]?.x ?? 0);
    expect(gap(after.participants)).toBeGreaterThan(gap(before));
    const label = after.messages[0]?.label;
    expect(label?.lines.join(" ").replaceAll(/\s+/g, " ")).toBe(
      first.label.replaceAll(/\s+/g, " ").trim(),
    );
    expect(faults(readSvg(renderSequenceSvg(long, after)))).toEqual([]);
  });

  it("lifelines run to the end, and a long diagram repeats the headers at the bottom", () => {
    const l = layoutSequence(large());
    const lastLine = Math.max(...l.messages.flatMap((m) => m.points.map((p) => p.y)));
    for (const p of l.participants) {
      expect(p.lifeline.y2).toBeGreaterThan(lastLine);
      expect(p.foot?.box.y).toBeGreaterThanOrEqual(p.lifeline.y2);
    }
    const short = layoutSequence(load("token-refresh-sequence"));
    expect(short.participants.every((p) => p.foot !== undefined)).toBe(true);
  });

  it("a destroyed lifeline ends at its cross; a created one starts at its header", () => {
    const d: SequenceDiagram = {
      schema_version: 1,
      diagram_type: "sequence",
      meta: { title: "Workers" },
      participants: [
        { id: "boss", type: "service", label: "Boss" },
        { id: "worker", type: "service", label: "Worker" },
      ],
      steps: [
        { kind: "create", from: "boss", to: "worker", label: "spawn" },
        { kind: "async", from: "boss", to: "worker", label: "job" },
        { kind: "destroy", from: "boss", to: "worker", label: "stop" },
        { kind: "async", from: "boss", to: "boss", label: "carry on" },
      ],
    };
    const l = layoutSequence(d);
    const worker = l.participants[1];
    const create = l.messages[0];
    expect(worker?.head.box.y).toBeGreaterThan(l.participants[0]?.head.box.y ?? 0);
    expect(create?.arrow.tip.x).toBe(worker?.head.box.x);
    expect(worker?.lifeline.y2).toBe(l.messages[2]?.arrow.tip.y);
    expect(worker?.destroyed).toEqual({ x: worker?.x, y: l.messages[2]?.arrow.tip.y });
    expect(faults(readSvg(renderSequenceSvg(d, l)))).toEqual([]);
  });

  it("meta.viewBox fixes the size and scales a larger drawing down to fit", () => {
    const d = load("token-refresh-sequence");
    d.meta.viewBox = [700, 500];
    const l = layoutSequence(d);
    expect([l.width, l.height]).toEqual([700, 500]);
    expect(l.scale).toBeLessThan(1);
    const svg = renderSequenceSvg(d, l);
    expect(svg).toMatch(/^<svg [^>]*width="700" height="500" viewBox="0 0 700 500"/);
    expect(svg).toContain(`scale(${l.scale})`);
  });

  it("leaves the description as it was (layout and render are pure)", () => {
    const d = large();
    const before = structuredClone(d);
    render(d);
    expect(d).toEqual(before);
  });

  it("is the same bytes twice, with two decimals at most", () => {
    const svg = render(large());
    expect(svg).toBe(render(large()));
    expect(svg).not.toMatch(/\d\.\d{3,}|NaN|Infinity|undefined/);
  });
});
