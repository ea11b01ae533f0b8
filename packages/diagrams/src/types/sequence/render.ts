import type { Interaction, RenderOptions } from "../../core/diagram-type.js";
import type { Point } from "../../core/model.js";
import { counted, look, renderLegend, svgDocument } from "../../core/svg/document.js";
import { labelBackground } from "../../core/svg/edge.js";
import { renderNode } from "../../core/svg/node.js";
import { text } from "../../core/svg/text.js";
import { el, esc, ID, num } from "../../core/svg/xml.js";
import type { Theme } from "../../core/theme.js";
import type { FrameLayout, MessageLayout, SequenceLayout } from "./layout-types.js";
import type { SequenceDiagram } from "./model.js";

/** Line pattern by message kind (UML): replies and creations dashed, the rest solid. */
const DASH: Record<string, string | undefined> = { reply: "6 4", create: "6 4" };
/** Open arrowheads for messages nobody waits on and for replies; filled for calls. */
const OPEN = new Set(["async", "reply", "create"]);

function arrowHead(m: MessageLayout, color: string): string {
  const { tip, dx, dy } = m.arrow;
  const len = 9;
  const half = 4.5;
  const base = { x: tip.x - dx * len, y: tip.y - dy * len };
  const a = { x: base.x - dy * half, y: base.y + dx * half };
  const b = { x: base.x + dy * half, y: base.y - dx * half };
  const d = `M${num(a.x)} ${num(a.y)}L${num(tip.x)} ${num(tip.y)}L${num(b.x)} ${num(b.y)}`;
  return OPEN.has(m.kind)
    ? el("path", {
        d,
        fill: "none",
        stroke: color,
        "stroke-width": 1.5,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      })
    : el("path", { d: `${d}Z`, fill: color });
}

function linePath(points: Point[], cut: number, dx: number): string {
  const pts = points.slice();
  const last = pts[pts.length - 1] as Point;
  pts[pts.length - 1] = { x: last.x - dx * cut, y: last.y };
  return pts.map((p, i) => `${i === 0 ? "M" : "L"}${num(p.x)} ${num(p.y)}`).join("");
}

function renderMessage(m: MessageLayout, theme: Theme, names: Map<string, string>): string {
  const color = theme.edge[m.role];
  const cut = OPEN.has(m.kind) ? 0.75 : 7;
  const line = el("path", {
    class: "edge-line message-line",
    d: linePath(m.points, cut, m.arrow.dx),
    fill: "none",
    stroke: color,
    "stroke-width": m.role === "main" ? 1.75 : 1.5,
    "stroke-dasharray": DASH[m.kind],
    "stroke-linejoin": "round",
  });
  const parts = [line, arrowHead(m, color)];
  if (m.label) {
    parts.push(labelBackground(m.label.background, theme));
    parts.push(text(m.label, theme.edge.labelText));
  }
  if (m.badge) {
    parts.push(el("circle", { cx: m.badge.cx, cy: m.badge.cy, r: m.badge.r, fill: color }));
    parts.push(
      el(
        "text",
        {
          x: m.badge.cx,
          y: m.badge.cy + 3.3,
          "font-size": 9,
          "font-weight": 600,
          fill: theme.background,
          "text-anchor": "middle",
        },
        esc(m.badge.text),
      ),
    );
  }
  const from = names.get(m.message.from) ?? m.message.from;
  const to = names.get(m.message.to) ?? m.message.to;
  const aria = `${m.number}. ${m.kind} from ${from} to ${to}${m.message.label ? `: ${m.message.label}` : ""}`;
  return el(
    "g",
    {
      id: `${ID}-msg-${m.id}`,
      // g.edge with an .edge-line: the HTML page lights and traces it like any edge.
      class: `edge message message-${m.kind}`,
      "data-id": m.id,
      "data-from": m.message.from,
      "data-to": m.message.to,
      "data-step": m.number,
      role: "img",
      "aria-label": aria,
    },
    parts.join(""),
  );
}

/** A note: a sheet with its top-right corner folded. */
const notePath = (b: { x: number; y: number; width: number; height: number }) =>
  `M${num(b.x)} ${num(b.y)}H${num(b.x + b.width - 8)}L${num(b.x + b.width)} ${num(b.y + 8)}V${num(b.y + b.height)}H${num(b.x)}Z`;

const frameGroup = (f: FrameLayout, parts: string[]) =>
  el(
    "g",
    {
      class: `fragment fragment-${f.kind}`,
      "data-id": f.id,
      "data-depth": f.depth,
      role: "group",
      "aria-label": f.kind,
    },
    parts.join(""),
  );

/** A frame's border and branch separators, drawn behind the lifelines. */
function renderFrame(f: FrameLayout, theme: Theme): string {
  const parts = [
    el("rect", { ...f.box, fill: "none", stroke: theme.muted, "stroke-width": 1 }),
    ...f.separators.map((s) =>
      el("path", {
        d: `M${num(s.x1)} ${num(s.y)}H${num(s.x2)}`,
        stroke: theme.muted,
        "stroke-width": 1,
        "stroke-dasharray": "5 4",
      }),
    ),
  ];
  return frameGroup(f, parts);
}

/** A frame's tab and guards, drawn over the lifelines and bars so they stay readable. */
function renderFrameLabels(f: FrameLayout, theme: Theme): string {
  const t = f.tab;
  const parts = [
    el("path", {
      d: `M${num(t.x)} ${num(t.y)}H${num(t.x + t.width)}V${num(t.y + t.height - 6)}L${num(t.x + t.width - 6)} ${num(t.y + t.height)}H${num(t.x)}Z`,
      fill: theme.name === "blueprint" ? theme.background : theme.lane.headerFill,
      stroke: theme.muted,
      "stroke-width": 1,
    }),
    text(f.tabLabel, theme.lane.headerText),
  ];
  for (const g of f.guards) {
    parts.push(el("rect", { ...g.background, rx: 3, fill: theme.background, "fill-opacity": 0.9 }));
    parts.push(text(g, theme.text));
  }
  return frameGroup(f, parts);
}

/** Renders a laid-out sequence diagram to SVG (deterministic: same layout, same bytes). */
export function renderSequenceSvg(
  d: SequenceDiagram,
  l: SequenceLayout,
  options: RenderOptions = {},
): string {
  const { theme, showcase } = look(d.meta, options);
  const names = new Map(d.participants.map((p) => [p.id, p.label]));
  const summary = `Sequence between ${counted(d.participants.length, "participant")} (${d.participants.map((p) => p.label).join(", ")}) with ${counted(l.messages.length, "message")}.`;
  const body: string[] = [];
  if (l.boxes.length > 0) {
    const drawn = l.boxes
      .map((b) =>
        el(
          "g",
          {
            class: "box",
            "data-id": b.id,
            role: "group",
            "aria-label": `box ${b.label.lines.join(" ")}`,
          },
          el("rect", {
            ...b.box,
            rx: Math.min(theme.lane.radius, 8),
            fill: theme.group.default.fill,
            "fill-opacity": theme.group.default.fillOpacity,
            stroke: theme.group.default.stroke,
            "stroke-width": 1,
          }) + text(b.label, theme.group.default.label),
        ),
      )
      .join("");
    body.push(el("g", { class: "boxes" }, drawn));
  }
  body.push(el("g", { class: "fragments" }, l.frames.map((f) => renderFrame(f, theme)).join("")));
  const lifelines = l.participants
    .map((p) => {
      let line = el("path", {
        class: "lifeline",
        "data-id": p.id,
        d: `M${num(p.lifeline.x)} ${num(p.lifeline.y1)}V${num(p.lifeline.y2)}`,
        stroke: theme.lane.stroke === theme.background ? theme.muted : theme.edge.return,
        "stroke-width": 1,
        "stroke-dasharray": "4 4",
      });
      if (p.destroyed) {
        const { x, y } = p.destroyed;
        line += el("path", {
          class: "destroyed",
          d: `M${num(x - 8)} ${num(y - 8)}L${num(x + 8)} ${num(y + 8)}M${num(x + 8)} ${num(y - 8)}L${num(x - 8)} ${num(y + 8)}`,
          stroke: theme.edge.error,
          "stroke-width": 2,
        });
      }
      return line;
    })
    .join("");
  body.push(el("g", { class: "lifelines" }, lifelines));
  body.push(
    el(
      "g",
      { class: "activations" },
      l.activations
        .map((a) =>
          el("rect", {
            class: "activation",
            "data-id": a.participant,
            ...a.box,
            fill: theme.node.fill,
            stroke: theme.edge.main,
            "stroke-width": 1,
          }),
        )
        .join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "notes" },
      l.notes
        .map((n) =>
          el(
            "g",
            { class: "note", "data-index": n.index, role: "note" },
            // An opaque sheet under the tint, so lifelines never show through a note.
            el("path", { d: notePath(n.box), fill: theme.background }) +
              el("path", {
                d: notePath(n.box),
                fill: theme.phase.emphasis.fill,
                "fill-opacity": theme.phase.emphasis.fillOpacity,
                stroke: theme.phase.emphasis.stroke,
                "stroke-width": 1,
              }) +
              text(n.text, theme.phase.emphasis.label),
          ),
        )
        .join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "dividers" },
      l.dividers
        .map((v) =>
          el(
            "g",
            { class: "divider" },
            el("path", {
              d: `M${num(v.x1)} ${num(v.y - 2)}H${num(v.x2)}M${num(v.x1)} ${num(v.y + 2)}H${num(v.x2)}`,
              stroke: theme.muted,
              "stroke-width": 1,
            }) +
              el("rect", {
                ...v.label.background,
                rx: 4,
                fill: theme.background,
                stroke: theme.muted,
                "stroke-width": 1,
              }) +
              text(v.label, theme.text),
          ),
        )
        .join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "fragment-labels" },
      l.frames.map((f) => renderFrameLabels(f, theme)).join(""),
    ),
  );
  const heads = l.participants.flatMap((p) => (p.foot ? [p.head, p.foot] : [p.head]));
  body.push(
    el("g", { class: "participants" }, heads.map((h) => renderNode(h, theme, showcase)).join("")),
  );
  body.push(
    el("g", { class: "messages" }, l.messages.map((m) => renderMessage(m, theme, names)).join("")),
  );
  if (l.legend) body.push(renderLegend(l.legend, theme));
  return svgDocument(d.meta, l, theme, showcase, summary, body.join(""));
}

/** The HTML page plays the messages in order: each one lit with its two participants. */
export function sequenceInteraction(_d: SequenceDiagram, l: SequenceLayout): Interaction {
  return {
    trace: l.messages.map((m) => ({ kind: "edge", id: m.id })),
    traceLabel: "Play messages",
  };
}
