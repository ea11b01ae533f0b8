import type { RenderOptions } from "../../core/diagram-type.js";
import { counted, look, renderLegend, svgDocument } from "../../core/svg/document.js";
import { renderEdge, renderEdgeLabel } from "../../core/svg/edge.js";
import { renderNode } from "../../core/svg/node.js";
import { text } from "../../core/svg/text.js";
import { el, ID } from "../../core/svg/xml.js";
import type { BandColors } from "../../core/theme.js";
import { layoutDiagram } from "./layout/index.js";
import type { BandLayout, Layout } from "./layout/types.js";
import type { WorkflowDiagram } from "./model.js";

function renderBand(
  band: BandLayout,
  colors: BandColors,
  kind: "phase" | "group",
  radius: number,
): string {
  // A phase spans every lane: its body stays light so the lanes read through it, and its
  // header strip carries the colour.
  const bodyOpacity = kind === "phase" ? colors.fillOpacity * 0.45 : colors.fillOpacity;
  let rect = el("rect", {
    ...band.box,
    rx: radius,
    fill: colors.fill,
    "fill-opacity": bodyOpacity,
    stroke: colors.stroke,
    "stroke-width": 1,
    "stroke-dasharray": colors.dash,
  });
  if (kind === "phase") {
    rect += el("rect", {
      x: band.box.x,
      y: band.box.y,
      width: band.box.width,
      height: 2 * (band.label.box.y - band.box.y) + band.label.box.height,
      rx: radius,
      fill: colors.fill,
      "fill-opacity": Math.min(1, colors.fillOpacity * 1.6),
    });
  }
  return el(
    "g",
    {
      class: kind,
      "data-id": band.id,
      role: "group",
      "aria-label": `${kind} ${band.label.lines.join(" ")}`,
    },
    rect + text(band.label, colors.label, kind === "phase" ? "middle" : undefined),
  );
}

function summary(diagram: WorkflowDiagram): string {
  const labels = new Map(diagram.nodes.map((n) => [n.id, n.label]));
  const lanes = `${counted(diagram.lanes.length, "lane")} (${diagram.lanes.map((l) => l.label).join(", ")})`;
  const counts = `Workflow with ${lanes}, ${counted(diagram.nodes.length, "step")} and ${counted(diagram.edges.length, "connection")}.`;
  if (!diagram.mainPath) return counts;
  return `${counts} Main path: ${diagram.mainPath.map((id) => labels.get(id) ?? id).join(" → ")}.`;
}

/** Renders a laid-out diagram to an SVG document (deterministic: same input, same bytes). */
export function renderLayoutSvg(
  diagram: WorkflowDiagram,
  layout: Layout,
  options: RenderOptions = {},
): string {
  const { theme, showcase } = look(diagram.meta, options);
  const body: string[] = [];
  const nodeLabels = new Map(diagram.nodes.map((n) => [n.id, n.label]));

  const lanes = layout.lanes
    .map((lane) => {
      const L = theme.lane;
      const fill = lane.exception ? L.exceptionFill : lane.index % 2 === 0 ? L.fill : L.fillAlt;
      const parts = [
        el("rect", {
          ...lane.box,
          rx: L.radius,
          fill,
          "fill-opacity": lane.exception && theme.name === "blueprint" ? 0.08 : L.fillOpacity,
          stroke: lane.exception ? L.exceptionStroke : L.stroke,
          "stroke-width": 1,
          "stroke-dasharray": lane.exception ? "6 3" : undefined,
        }),
        el("rect", {
          ...lane.header,
          rx: L.radius,
          fill: lane.exception
            ? L.exceptionStroke
            : showcase
              ? `url(#${ID}-header-fill)`
              : L.headerFill,
          "fill-opacity": lane.exception ? 0.18 : L.headerOpacity,
        }),
      ];
      if (lane.exception) {
        parts.push(
          el("rect", {
            x: lane.box.x,
            y: lane.box.y,
            width: 4,
            height: lane.box.height,
            fill: L.exceptionStroke,
          }),
        );
      }
      parts.push(text(lane.label, lane.exception ? L.exceptionText : L.headerText));
      return el(
        "g",
        {
          class: lane.exception ? "lane lane-exception" : "lane",
          "data-id": lane.id,
          role: "group",
          "aria-label": `${lane.exception ? "exception lane" : "lane"} ${lane.label.lines.join(" ")}`,
        },
        parts.join(""),
      );
    })
    .join("");
  body.push(el("g", { class: "lanes" }, lanes));
  for (const [kind, bands] of [
    ["phase", layout.phases],
    ["group", layout.groups],
  ] as const) {
    if (bands.length === 0) continue;
    const colors = kind === "phase" ? theme.phase : theme.group;
    const radius =
      kind === "phase" ? Math.min(theme.lane.radius, 6) : Math.min(theme.node.radius, 8);
    const drawn = bands.map((b) => renderBand(b, colors[b.variant], kind, radius)).join("");
    body.push(el("g", { class: `${kind}s` }, drawn));
  }
  body.push(
    el("g", { class: "edges" }, layout.edges.map((e) => renderEdge(e, theme, nodeLabels)).join("")),
  );
  body.push(
    el("g", { class: "nodes" }, layout.nodes.map((n) => renderNode(n, theme, showcase)).join("")),
  );
  body.push(
    el("g", { class: "edge-labels" }, layout.edges.map((e) => renderEdgeLabel(e, theme)).join("")),
  );

  if (layout.legend) body.push(renderLegend(layout.legend, theme));

  return svgDocument(diagram.meta, layout, theme, showcase, summary(diagram), body.join(""));
}

/** Lays out and renders a validated description to SVG. */
export function renderSvg(diagram: WorkflowDiagram, options: RenderOptions = {}): string {
  return renderLayoutSvg(diagram, layoutDiagram(diagram), options);
}
