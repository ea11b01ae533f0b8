import type { RenderOptions } from "../../core/diagram-type.js";
import type { EdgeBox } from "../../core/svg/boxes.js";
import { renderEdge, renderEdgeLabel } from "../../core/svg/edge.js";
import { text } from "../../core/svg/text.js";
import { el, esc, ID, num } from "../../core/svg/xml.js";
import { FONT_STACK } from "../../core/text/measure.js";
import { THEMES, type Theme } from "../../core/theme.js";
import type { LifecycleLayout, NoteLayout, StateLayout, TransitionLayout } from "./layout.js";
import type { LifecycleDiagram } from "./model.js";

/** The colour a state's outline takes: the preset's node stroke, or its accent. */
const outlineColor = (theme: Theme) =>
  theme.node.stroke === "category" ? theme.accent : theme.node.stroke;

function renderState(s: StateLayout, theme: Theme, showcase: boolean): string {
  const { x, y, width: w, height: h } = s.box;
  const flow = theme.category.flow === theme.background ? theme.text : theme.edge.main;
  const shadow = showcase ? `url(#${ID}-shadow)` : undefined;
  const attrs = {
    // "node" as in every type: the HTML page lights and traces g.node elements.
    class: `node state state-${s.shape}`,
    "data-id": s.id,
    "data-parent": s.parent,
    role: "img",
  };
  const name = [s.label?.lines.join(" "), s.sublabel?.lines.join(" ")].filter(Boolean).join(": ");
  switch (s.shape) {
    case "initial":
      return el(
        "g",
        { ...attrs, "aria-label": "initial state" },
        el("circle", { cx: x + w / 2, cy: y + h / 2, r: w / 2, fill: flow }),
      );
    case "final":
      return el(
        "g",
        { ...attrs, "aria-label": "final state" },
        el("circle", {
          cx: x + w / 2,
          cy: y + h / 2,
          r: w / 2 - 1,
          fill: theme.background,
          stroke: flow,
          "stroke-width": 2,
        }) + el("circle", { cx: x + w / 2, cy: y + h / 2, r: w / 2 - 5, fill: flow }),
      );
    case "choice": {
      const d = `M${num(x + w / 2)} ${num(y)}L${num(x + w)} ${num(y + h / 2)}L${num(x + w / 2)} ${num(y + h)}L${num(x)} ${num(y + h / 2)}Z`;
      return el(
        "g",
        { ...attrs, "aria-label": "choice" },
        el("path", {
          d,
          fill: theme.node.fill,
          stroke: outlineColor(theme),
          "stroke-width": theme.node.strokeWidth + 0.25,
          filter: shadow,
        }),
      );
    }
    case "composite": {
      const header = s.header as { height: number };
      const body = el("rect", {
        x,
        y,
        width: w,
        height: h,
        rx: theme.lane.radius,
        fill: theme.lane.fill,
        "fill-opacity": theme.lane.fillOpacity,
        stroke: outlineColor(theme),
        "stroke-width": theme.node.strokeWidth,
      });
      const rule = el("path", {
        d: `M${num(x)} ${num(y + header.height)}H${num(x + w)}`,
        stroke: theme.lane.stroke,
        "stroke-width": 1,
      });
      const labels =
        (s.label ? text(s.label, theme.node.label) : "") +
        (s.sublabel ? text(s.sublabel, theme.node.sublabel) : "");
      return el("g", { ...attrs, "aria-label": `composite state ${name}` }, body + rule + labels);
    }
    case "state": {
      const box = el("rect", {
        x,
        y,
        width: w,
        height: h,
        rx: Math.max(10, theme.node.radius),
        fill: showcase ? `url(#${ID}-state-fill)` : theme.node.fill,
        stroke: outlineColor(theme),
        "stroke-width": theme.node.strokeWidth,
        filter: shadow,
      });
      const labels =
        (s.label ? text(s.label, theme.node.label, "middle") : "") +
        (s.sublabel ? text(s.sublabel, theme.node.sublabel, "middle") : "");
      return el("g", { ...attrs, "aria-label": `state ${name}` }, box + labels);
    }
  }
}

/** A transition as the family's edge: drawn like every other line with an arrowhead. */
function asEdge(t: TransitionLayout, strokeWidth: number): EdgeBox {
  const edge: EdgeBox = {
    id: t.id,
    edge: { from: t.from, to: t.to, label: t.label?.lines.join(" ") ?? "" },
    role: t.role,
    points: t.points,
    arrow: t.arrow,
    strokeWidth,
  };
  if (t.label) edge.label = t.label;
  return edge;
}

function renderNote(n: NoteLayout, theme: Theme): string {
  const { x, y, width: w, height: h } = n.box;
  const fold = 8;
  const d = `M${num(x)} ${num(y)}H${num(x + w - fold)}L${num(x + w)} ${num(y + fold)}V${num(y + h)}H${num(x)}Z`;
  const link = n.link.map((p, i) => `${i === 0 ? "M" : "L"}${num(p.x)} ${num(p.y)}`).join("");
  return el(
    "g",
    { class: "note", "data-id": n.id, "data-state": n.state, role: "note" },
    el("path", {
      d: link,
      fill: "none",
      stroke: theme.muted,
      "stroke-width": 1,
      "stroke-dasharray": "3 3",
    }) +
      el("path", { d, fill: theme.node.fill, stroke: theme.muted, "stroke-width": 1 }) +
      el("path", {
        d: `M${num(x + w - fold)} ${num(y)}V${num(y + fold)}H${num(x + w)}`,
        fill: "none",
        stroke: theme.muted,
        "stroke-width": 1,
      }) +
      text(n.text, theme.node.label),
  );
}

function defs(theme: Theme, showcase: boolean): string {
  const parts: string[] = [];
  if (theme.grid) {
    parts.push(
      el(
        "pattern",
        { id: `${ID}-grid`, width: 100, height: 100, patternUnits: "userSpaceOnUse" },
        el("path", {
          d: "M20 0V100M40 0V100M60 0V100M80 0V100M0 20H100M0 40H100M0 60H100M0 80H100",
          stroke: theme.grid.minor,
          "stroke-width": 0.5,
          fill: "none",
        }) +
          el("path", {
            d: "M0 0H100V100",
            stroke: theme.grid.major,
            "stroke-width": 1,
            fill: "none",
          }),
      ),
    );
  }
  if (showcase) {
    const dark = theme.name === "signal-flow" || theme.name === "blueprint";
    parts.push(
      el(
        "filter",
        { id: `${ID}-shadow`, x: "-20%", y: "-20%", width: "140%", height: "160%" },
        el("feDropShadow", {
          dx: 0,
          dy: dark ? 0 : 2,
          stdDeviation: dark ? 4 : 3,
          "flood-color": dark ? theme.accent : "#0f172a",
          "flood-opacity": dark ? 0.35 : 0.14,
        }),
      ),
      el(
        "linearGradient",
        { id: `${ID}-state-fill`, x1: 0, y1: 0, x2: 0, y2: 1 },
        el("stop", { offset: 0, "stop-color": theme.node.fill }) +
          el("stop", { offset: 1, "stop-color": dark ? theme.background : theme.lane.fillAlt }),
      ),
    );
  }
  return parts.length ? el("defs", {}, parts.join("")) : "";
}

function describe(layout: LifecycleLayout): string {
  const named = layout.states.filter((s) => s.shape === "state" || s.shape === "composite");
  const names = named.map((s) => s.label?.lines.join(" ") ?? s.id);
  const n = layout.transitions.length;
  const parts = [
    layout.meta.subtitle,
    `State machine with ${names.length} state${names.length === 1 ? "" : "s"} (${names.join(", ")}) and ${n} transition${n === 1 ? "" : "s"}.`,
  ];
  return parts.filter((p) => p !== undefined && p !== "").join(" ");
}

/** Renders a laid-out lifecycle to an SVG document (same layout, same bytes). */
export function renderLifecycle(
  _diagram: LifecycleDiagram,
  layout: LifecycleLayout,
  options: RenderOptions = {},
): string {
  const meta = layout.meta;
  const theme = THEMES[options.preset ?? meta.visual_preset ?? "classic"];
  const showcase = (options.quality ?? meta.quality_profile) === "showcase";
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(layout.width)}" height="${num(layout.height)}" viewBox="0 0 ${num(layout.width)} ${num(layout.height)}" role="img" aria-labelledby="${ID}-title ${ID}-desc" font-family="${esc(FONT_STACK)}" data-preset="${theme.name}" data-diagram-type="lifecycle"${meta.locale ? ` xml:lang="${esc(meta.locale)}"` : ""}>`,
  );
  out.push(el("title", { id: `${ID}-title` }, esc(meta.title)));
  out.push(el("desc", { id: `${ID}-desc` }, esc(describe(layout))));
  out.push(defs(theme, showcase));
  out.push(el("rect", { width: layout.width, height: layout.height, fill: theme.background }));
  if (theme.grid) {
    out.push(el("rect", { width: layout.width, height: layout.height, fill: `url(#${ID}-grid)` }));
  }
  const transform =
    layout.scale !== 1 || layout.offset.x !== 0 || layout.offset.y !== 0
      ? `translate(${num(layout.offset.x)} ${num(layout.offset.y)}) scale(${layout.scale})`
      : undefined;
  const body: string[] = [text(layout.title, theme.text)];
  if (theme.titleRule) {
    const y = layout.title.box.y - 8;
    body.push(el("rect", { x: layout.title.box.x, y, width: 40, height: 3, fill: theme.accent }));
  } else if (showcase) {
    const y = layout.title.box.y + layout.title.box.height + 1;
    body.push(
      el("rect", { x: layout.title.box.x, y, width: 28, height: 2, rx: 1, fill: theme.accent }),
    );
  }
  if (layout.subtitle) body.push(text(layout.subtitle, theme.muted));
  const composites = layout.states.filter((s) => s.shape === "composite");
  const simple = layout.states.filter((s) => s.shape !== "composite");
  body.push(
    el(
      "g",
      { class: "composites" },
      composites.map((s) => renderState(s, theme, showcase)).join(""),
    ),
  );
  body.push(el("g", { class: "notes" }, layout.notes.map((n) => renderNote(n, theme)).join("")));
  const labels = new Map(layout.states.map((s) => [s.id, s.label?.lines.join(" ") ?? s.shape]));
  const edges = layout.transitions.map((t) => asEdge(t, t.role === "main" ? 1.75 : 1.5));
  body.push(el("g", { class: "edges" }, edges.map((e) => renderEdge(e, theme, labels)).join("")));
  body.push(
    el("g", { class: "states" }, simple.map((s) => renderState(s, theme, showcase)).join("")),
  );
  body.push(
    el("g", { class: "edge-labels" }, edges.map((e) => renderEdgeLabel(e, theme)).join("")),
  );
  out.push(el("g", { transform }, body.join("")));
  out.push("</svg>\n");
  return out.join("");
}
