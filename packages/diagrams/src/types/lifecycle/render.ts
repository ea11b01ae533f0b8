import type { RenderOptions } from "../../core/diagram-type.js";
import type { EdgeBox } from "../../core/svg/boxes.js";
import { counted, look, svgDocument } from "../../core/svg/document.js";
import { renderEdge, renderEdgeLabel } from "../../core/svg/edge.js";
import { text } from "../../core/svg/text.js";
import { el, ID, num } from "../../core/svg/xml.js";
import type { Theme } from "../../core/theme.js";
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
    case "bar":
      return el(
        "g",
        { ...attrs, "aria-label": s.bar ?? "fork" },
        el("rect", { x, y, width: w, height: h, rx: 2, fill: flow }),
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
        fill: showcase ? `url(#${ID}-node-fill)` : theme.node.fill,
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

function summary(layout: LifecycleLayout): string {
  const named = layout.states.filter((s) => s.shape === "state" || s.shape === "composite");
  const names = named.map((s) => s.label?.lines.join(" ") ?? s.id);
  const transitions = counted(layout.transitions.length, "transition");
  return `State machine with ${counted(names.length, "state")} (${names.join(", ")}) and ${transitions}.`;
}

/** Renders a laid-out lifecycle to an SVG document (same layout, same bytes). */
export function renderLifecycle(
  _diagram: LifecycleDiagram,
  layout: LifecycleLayout,
  options: RenderOptions = {},
): string {
  const { theme, showcase } = look(layout.meta, options);
  const body: string[] = [];
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
  return svgDocument(layout.meta, layout, theme, showcase, summary(layout), body.join(""));
}
