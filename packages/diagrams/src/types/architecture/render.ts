import type { RenderOptions } from "../../core/diagram-type.js";
import type { EdgeBox } from "../../core/svg/boxes.js";
import { counted, look, renderLegend, svgDocument } from "../../core/svg/document.js";
import { edgeStyle, renderEdge, renderEdgeLabel } from "../../core/svg/edge.js";
import { renderNode } from "../../core/svg/node.js";
import { text } from "../../core/svg/text.js";
import { el, num } from "../../core/svg/xml.js";
import type { Theme } from "../../core/theme.js";
import {
  type ArchitectureLayout,
  type BoundaryLayout,
  type ElementLayout,
  KIND_WORDS,
  type KindLegendItem,
  type RelationshipLayout,
} from "./layout.js";
import type { ArchitectureDiagram } from "./model.js";

function renderBoundary(b: BoundaryLayout, theme: Theme): string {
  const stroke = theme.node.stroke === "category" ? theme.muted : theme.node.stroke;
  return el(
    "g",
    {
      class: "boundary",
      "data-id": b.id,
      "data-kind": b.kind,
      "data-parent": b.parent,
      role: "group",
      "aria-label": `${KIND_WORDS[b.kind]} boundary ${b.label.lines.join(" ")}`,
    },
    el("rect", {
      ...b.box,
      rx: theme.lane.radius,
      fill: theme.lane.fill,
      "fill-opacity": theme.lane.fillOpacity,
      stroke,
      "stroke-width": 1.25,
      "stroke-dasharray": "7 4",
    }) +
      text(b.label, theme.text) +
      text(b.caption, theme.muted),
  );
}

function renderElement(e: ElementLayout, theme: Theme, showcase: boolean): string {
  const node = renderNode(e, theme, showcase);
  const attrs = [
    e.parent === undefined ? "" : `data-parent="${e.parent}" `,
    e.hidden === undefined ? "" : `data-closed="${e.hidden}" `,
  ].join("");
  const tagged = node.replace(/^<g /, `<g ${attrs}`);
  if (e.hidden === undefined) return tagged;
  // A closed boundary: a second outline just inside the first says there is more inside
  // (inside, so nothing of the box reaches past the border that lines are routed to).
  const { x, y, width, height } = e.box;
  const inner = el("rect", {
    x: x + 3,
    y: y + 3,
    width: width - 6,
    height: height - 6,
    rx: Math.max(0, theme.node.radius - 2),
    fill: "none",
    stroke: theme.muted,
    "stroke-width": 0.75,
    class: "closed-inner",
  });
  return tagged.replace(/<\/g>$/, `${inner}</g>`);
}

function asEdge(r: RelationshipLayout): EdgeBox {
  const edge: EdgeBox = {
    id: r.id,
    edge: { from: r.from, to: r.to, label: r.text ?? "" },
    role: r.role,
    points: r.points,
    arrow: r.arrow,
    strokeWidth: r.kind === "sync" ? 1.75 : 1.5,
  };
  if (r.label) edge.label = r.label;
  return edge;
}

function renderKinds(items: KindLegendItem[], theme: Theme): string {
  return items
    .map((item) => {
      const style = edgeStyle(
        item.kind === "sync" ? "main" : item.kind === "async" ? "async" : "return",
        undefined,
        theme,
      );
      const y = item.swatch.y + item.swatch.height / 2;
      return el(
        "g",
        { class: "legend-kind", "data-kind": item.kind },
        el("path", {
          d: `M${num(item.swatch.x)} ${num(y)}H${num(item.swatch.x + item.swatch.width)}`,
          stroke: style.color,
          "stroke-width": item.kind === "sync" ? 2.25 : 1.5,
          "stroke-dasharray": style.dash,
          "stroke-linecap": style.cap,
        }) + text(item.text, theme.muted),
      );
    })
    .join("");
}

function summary(layout: ArchitectureLayout): string {
  const elements = counted(layout.elements.length, "element");
  const boundaries = counted(layout.boundaries.length, "open boundary", "open boundaries");
  const relationships = counted(layout.relationships.length, "relationship");
  return `Architecture view "${layout.view.title}": ${elements} in ${boundaries}, ${relationships}.`;
}

/** Renders one laid-out view to an SVG document (same layout, same bytes). */
export function renderArchitecture(
  _diagram: ArchitectureDiagram,
  layout: ArchitectureLayout,
  options: RenderOptions = {},
): string {
  const { theme, showcase } = look(layout.meta, options);
  const body: string[] = [];
  body.push(
    el(
      "g",
      { class: "boundaries", "data-view": layout.view.id },
      layout.boundaries.map((b) => renderBoundary(b, theme)).join(""),
    ),
  );
  const names = new Map<string, string>([
    ...layout.elements.map((e): [string, string] => [e.id, e.node.label]),
    ...layout.boundaries.map((b): [string, string] => [b.id, b.label.lines.join(" ")]),
  ]);
  const edges = layout.relationships.map(asEdge);
  body.push(
    el(
      "g",
      { class: "edges" },
      edges
        .map((e, i) =>
          renderEdge(e, theme, names).replace(
            /^<g /,
            `<g data-kind="${(layout.relationships[i] as RelationshipLayout).kind}" `,
          ),
        )
        .join(""),
    ),
  );
  body.push(
    el(
      "g",
      { class: "nodes" },
      layout.elements.map((e) => renderElement(e, theme, showcase)).join(""),
    ),
  );
  body.push(
    el("g", { class: "edge-labels" }, edges.map((e) => renderEdgeLabel(e, theme)).join("")),
  );
  if (layout.legend || layout.kinds.length > 0) {
    body.push(
      el(
        "g",
        { class: "legends" },
        (layout.legend ? renderLegend(layout.legend, theme) : "") +
          (layout.kinds.length > 0
            ? el(
                "g",
                { class: "legend", role: "group", "aria-label": "Relationship kinds" },
                renderKinds(layout.kinds, theme),
              )
            : ""),
      ),
    );
  }
  return svgDocument(layout.meta, layout, theme, showcase, summary(layout), body.join(""));
}
