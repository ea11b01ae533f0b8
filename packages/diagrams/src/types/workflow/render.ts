import type { RenderOptions } from "../../core/diagram-type.js";
import { edgeStyle, renderEdge, renderEdgeLabel } from "../../core/svg/edge.js";
import { renderNode } from "../../core/svg/node.js";
import { text } from "../../core/svg/text.js";
import { el, esc, ID, num } from "../../core/svg/xml.js";
import { FONT_STACK } from "../../core/text/measure.js";
import { type BandColors, THEMES, type Theme } from "../../core/theme.js";
import { layoutDiagram } from "./layout/index.js";
import type { BandLayout, Layout } from "./layout/types.js";
import type { WorkflowDiagram } from "./model.js";

export type { RenderOptions };

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
    );
    parts.push(
      el(
        "linearGradient",
        { id: `${ID}-node-fill`, x1: 0, y1: 0, x2: 0, y2: 1 },
        el("stop", { offset: 0, "stop-color": theme.node.fill }) +
          el("stop", { offset: 1, "stop-color": dark ? theme.background : theme.lane.fillAlt }),
      ),
    );
    parts.push(
      el(
        "linearGradient",
        { id: `${ID}-header-fill`, x1: 0, y1: 0, x2: 1, y2: 0 },
        el("stop", { offset: 0, "stop-color": theme.lane.headerFill }) +
          el("stop", { offset: 1, "stop-color": theme.lane.fill }),
      ),
    );
  }
  return parts.length ? el("defs", {}, parts.join("")) : "";
}

function describe(diagram: WorkflowDiagram): string {
  const labels = new Map(diagram.nodes.map((n) => [n.id, n.label]));
  const parts = [
    diagram.meta.subtitle,
    `Workflow with ${diagram.lanes.length} lane${diagram.lanes.length === 1 ? "" : "s"} (${diagram.lanes.map((l) => l.label).join(", ")}), ${diagram.nodes.length} step${diagram.nodes.length === 1 ? "" : "s"} and ${diagram.edges.length} connection${diagram.edges.length === 1 ? "" : "s"}.`,
    diagram.mainPath
      ? `Main path: ${diagram.mainPath.map((id) => labels.get(id) ?? id).join(" → ")}.`
      : undefined,
  ];
  return parts.filter((p) => p !== undefined && p !== "").join(" ");
}

/** Renders a laid-out diagram to an SVG document (deterministic: same input, same bytes). */
export function renderLayoutSvg(
  diagram: WorkflowDiagram,
  layout: Layout,
  options: RenderOptions = {},
): string {
  const theme = THEMES[options.preset ?? diagram.meta.visual_preset ?? "classic"];
  const showcase = (options.quality ?? diagram.meta.quality_profile) === "showcase";
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(layout.width)}" height="${num(layout.height)}" viewBox="0 0 ${num(layout.width)} ${num(layout.height)}" role="img" aria-labelledby="${ID}-title ${ID}-desc" font-family="${esc(FONT_STACK)}" data-preset="${theme.name}"${diagram.meta.locale ? ` xml:lang="${esc(diagram.meta.locale)}"` : ""}>`,
  );
  out.push(el("title", { id: `${ID}-title` }, esc(diagram.meta.title)));
  out.push(el("desc", { id: `${ID}-desc` }, esc(describe(diagram))));
  out.push(defs(theme, showcase));
  out.push(el("rect", { width: layout.width, height: layout.height, fill: theme.background }));
  if (theme.grid)
    out.push(el("rect", { width: layout.width, height: layout.height, fill: `url(#${ID}-grid)` }));
  const transform =
    layout.scale !== 1 || layout.offset.x !== 0 || layout.offset.y !== 0
      ? `translate(${num(layout.offset.x)} ${num(layout.offset.y)}) scale(${layout.scale})`
      : undefined;
  const body: string[] = [];
  const nodeLabels = new Map(diagram.nodes.map((n) => [n.id, n.label]));

  body.push(text(layout.title, theme.text));
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

  if (layout.legend) {
    const legend = layout.legend;
    const items = legend.items
      .map((item) => {
        if (item.kind === "category") {
          const color = theme.category[item.key];
          return el("rect", { ...item.swatch, rx: 3, fill: color }) + text(item.text, theme.muted);
        }
        const style = edgeStyle(item.key, undefined, theme);
        const y = item.swatch.y + item.swatch.height / 2;
        const sample = el("path", {
          d: `M${num(item.swatch.x)} ${num(y)}H${num(item.swatch.x + item.swatch.width)}`,
          stroke: style.color,
          "stroke-width": item.key === "main" ? 2.25 : 1.5,
          "stroke-dasharray": style.dash,
          "stroke-linecap": style.cap,
        });
        return sample + text(item.text, theme.muted);
      })
      .join("");
    body.push(
      el(
        "g",
        { class: "legend", role: "group", "aria-label": legend.title.lines.join(" ") },
        text(legend.title, theme.text) + items,
      ),
    );
  }

  out.push(el("g", { transform }, body.join("")));
  out.push("</svg>\n");
  return out.join("");
}

/** Lays out and renders a validated description to SVG. */
export function renderSvg(diagram: WorkflowDiagram, options: RenderOptions = {}): string {
  return renderLayoutSvg(diagram, layoutDiagram(diagram), options);
}
