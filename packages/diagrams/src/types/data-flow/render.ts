import type { RenderOptions } from "../../core/diagram-type.js";
import type { Box } from "../../core/geometry.js";
import type { EdgeBox } from "../../core/svg/boxes.js";
import { counted, look, svgDocument } from "../../core/svg/document.js";
import { edgeLabelGroup, labelBackground, renderEdge } from "../../core/svg/edge.js";
import { ICON_PATHS } from "../../core/svg/icons.js";
import { text } from "../../core/svg/text.js";
import { el, ID, num } from "../../core/svg/xml.js";
import type { Theme } from "../../core/theme.js";
import type {
  BoundaryLayout,
  DataFlowLayout,
  DataFlowLegend,
  ElementLayout,
  FlowLayout,
  LegendEntry,
} from "./layout.js";
import type { DataFlowDiagram } from "./model.js";
import { CLASSIFICATION_COLORS, CLASSIFICATION_WIDTH } from "./palette.js";

const KIND_NAME = { entity: "external entity", process: "process", store: "data store" } as const;

const outlineColor = (theme: Theme) =>
  theme.node.stroke === "category" ? theme.text : theme.node.stroke;

/** The shape of an element by DFD convention; the first shape drawn is its outline. */
function shape(kind: ElementLayout["kind"], box: Box, theme: Theme, fill: string, shadow?: string) {
  const { x, y, width: w, height: h } = box;
  const stroke = outlineColor(theme);
  const sw = theme.node.strokeWidth + 0.25;
  switch (kind) {
    case "entity":
      return el("rect", {
        x,
        y,
        width: w,
        height: h,
        rx: 2,
        fill,
        stroke,
        "stroke-width": sw,
        filter: shadow,
      });
    case "process":
      return el("rect", {
        x,
        y,
        width: w,
        height: h,
        rx: Math.min(h / 2, 22),
        fill,
        stroke,
        "stroke-width": sw,
        filter: shadow,
      });
    case "store":
      // Open at the right end: two parallel lines, closed on the left.
      return (
        el("rect", { x, y, width: w, height: h, fill, filter: shadow }) +
        el("path", {
          d: `M${num(x + w)} ${num(y)}H${num(x)}V${num(y + h)}H${num(x + w)}`,
          fill: "none",
          stroke,
          "stroke-width": sw,
        })
      );
  }
}

function icon(e: ElementLayout, theme: Theme): string {
  if (!e.icon) return "";
  const { box } = e.icon;
  const s = box.width / 16;
  return el("path", {
    class: "icon",
    d: ICON_PATHS[e.icon.type],
    transform: `translate(${num(box.x)} ${num(box.y)}) scale(${num(s)})`,
    fill: "none",
    stroke: theme.muted,
    "stroke-width": 1.4,
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
  });
}

function renderElement(e: ElementLayout, theme: Theme, showcase: boolean): string {
  const fill = showcase ? `url(#${ID}-node-fill)` : theme.node.fill;
  const shadow = showcase ? `url(#${ID}-shadow)` : undefined;
  const name = [e.label.lines.join(" "), e.sublabel?.lines.join(" ")].filter(Boolean).join(": ");
  return el(
    "g",
    {
      class: `node element element-${e.kind}`,
      "data-id": e.id,
      "data-parent": e.parent,
      role: "img",
      "aria-label": `${KIND_NAME[e.kind]} ${name}`,
    },
    shape(e.kind, e.box, theme, fill, shadow) +
      icon(e, theme) +
      text(e.label, theme.node.label, "middle") +
      (e.sublabel ? text(e.sublabel, theme.node.sublabel, "middle") : ""),
  );
}

function renderBoundary(b: BoundaryLayout, theme: Theme): string {
  const band = theme.group.security;
  return el(
    "g",
    {
      class: "node boundary trust-boundary",
      "data-id": b.id,
      "data-parent": b.parent,
      role: "group",
      "aria-label": `trust boundary ${b.label.lines.join(" ")}`,
    },
    el("rect", {
      x: b.box.x,
      y: b.box.y,
      width: b.box.width,
      height: b.box.height,
      rx: 10,
      fill: band.fill,
      "fill-opacity": band.fillOpacity,
      stroke: theme.security,
      "stroke-width": 1.5,
      "stroke-dasharray": "8 5",
    }) +
      text(b.label, band.label) +
      (b.sublabel ? text(b.sublabel, theme.muted) : ""),
  );
}

function crossingMark(x: number, y: number, theme: Theme, attrs: Record<string, string> = {}) {
  return el("circle", {
    class: "crossing-mark",
    ...attrs,
    cx: x,
    cy: y,
    r: 4.5,
    fill: theme.security,
    stroke: theme.background,
    "stroke-width": 1.5,
  });
}

function asEdge(f: FlowLayout, theme: Theme, names: Map<string, string>): EdgeBox {
  const color = CLASSIFICATION_COLORS[theme.name][f.classification];
  const data = f.label.name.lines.join(" ");
  const how = f.protocol ? ` over ${f.protocol}` : "";
  const crosses =
    f.crossings.length > 0
      ? `; crosses ${f.crossings.map((c) => `${c.direction === "out" ? "out of" : "into"} ${names.get(c.boundary) ?? c.boundary}`).join(", ")}`
      : "";
  return {
    id: f.id,
    edge: { from: f.from, to: f.to, label: data },
    role: "main",
    points: f.points,
    arrow: f.arrow,
    strokeWidth: CLASSIFICATION_WIDTH[f.classification],
    style: { color },
    className: `flow flow-${f.classification}${f.crossings.length > 0 ? " crossing" : ""}`,
    ariaLabel: `${f.classification} data flow from ${names.get(f.from) ?? f.from} to ${names.get(f.to) ?? f.to}: ${data}${how}${crosses}`,
    decorations: f.crossings
      .map((c) =>
        crossingMark(c.point.x, c.point.y, theme, {
          "data-boundary": c.boundary,
          "data-direction": c.direction,
        }),
      )
      .join(""),
  };
}

function renderFlowLabel(f: FlowLayout, theme: Theme): string {
  const color = CLASSIFICATION_COLORS[theme.name][f.classification];
  return edgeLabelGroup(
    f.id,
    labelBackground(f.label.background, theme, { opacity: 0.94, outline: color }) +
      text(f.label.name, theme.edge.labelText, "middle") +
      text(f.label.detail, color, "middle"),
  );
}

function legendSwatch(entry: LegendEntry, theme: Theme): string {
  const { x, y, width: w, height: h } = entry.swatch;
  const mid = y + h / 2;
  switch (entry.kind) {
    case "entity":
    case "process":
    case "store":
      return shape(entry.kind, entry.swatch, theme, theme.node.fill);
    case "boundary":
      return el("rect", {
        ...entry.swatch,
        rx: 4,
        fill: theme.group.security.fill,
        "fill-opacity": theme.group.security.fillOpacity,
        stroke: theme.security,
        "stroke-width": 1.5,
        "stroke-dasharray": "5 3",
      });
    case "crossing":
      return (
        el("path", {
          d: `M${num(x)} ${num(mid)}H${num(x + w)}`,
          stroke: theme.muted,
          "stroke-width": 1.5,
        }) +
        el("path", {
          d: `M${num(x + w / 2)} ${num(y)}V${num(y + h)}`,
          stroke: theme.security,
          "stroke-width": 1.5,
          "stroke-dasharray": "3 2",
        }) +
        crossingMark(x + w / 2, mid, theme)
      );
    default:
      return el("path", {
        d: `M${num(x)} ${num(mid)}H${num(x + w)}`,
        stroke: CLASSIFICATION_COLORS[theme.name][entry.kind],
        "stroke-width": CLASSIFICATION_WIDTH[entry.kind] + 0.5,
      });
  }
}

function renderLegend(legend: DataFlowLegend, theme: Theme): string {
  return el(
    "g",
    { class: "legend", role: "group", "aria-label": "Legend" },
    text(legend.title, theme.text) +
      legend.entries.map((e) => legendSwatch(e, theme) + text(e.text, theme.muted)).join(""),
  );
}

function summary(layout: DataFlowLayout): string {
  const elements = counted(layout.elements.length, "element");
  const flows = counted(layout.flows.length, "data flow");
  const boundaries = counted(layout.boundaries.length, "trust boundary", "trust boundaries");
  const crossing = layout.flows.filter((x) => x.crossings.length > 0).length;
  return `Data-flow diagram with ${elements}, ${flows} and ${boundaries}; ${crossing} of the flows cross a trust boundary.`;
}

/** Renders a laid-out data-flow diagram to an SVG document (same layout, same bytes). */
export function renderDataFlow(
  _diagram: DataFlowDiagram,
  layout: DataFlowLayout,
  options: RenderOptions = {},
): string {
  const { theme, showcase } = look(layout.meta, options);
  const names = new Map<string, string>([
    ...layout.elements.map((e): [string, string] => [e.id, e.label.lines.join(" ")]),
    ...layout.boundaries.map((b): [string, string] => [b.id, b.label.lines.join(" ")]),
  ]);
  const body: string[] = [];
  body.push(
    el(
      "g",
      { class: "boundaries" },
      layout.boundaries.map((b) => renderBoundary(b, theme)).join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "edges" },
      layout.flows.map((f) => renderEdge(asEdge(f, theme, names), theme, names)).join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "elements" },
      layout.elements.map((e) => renderElement(e, theme, showcase)).join(""),
    ),
  );
  body.push(
    el("g", { class: "edge-labels" }, layout.flows.map((f) => renderFlowLabel(f, theme)).join("")),
  );
  if (layout.legend) body.push(renderLegend(layout.legend, theme));
  return svgDocument(layout.meta, layout, theme, showcase, summary(layout), body.join(""));
}
