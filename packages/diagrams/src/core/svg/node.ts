import type { Point } from "../model.js";
import type { Theme } from "../theme.js";
import type { NodeBox } from "./boxes.js";
import { ICON_PATHS } from "./icons.js";
import { text } from "./text.js";
import { el, esc, ID, num } from "./xml.js";

function categoryColor(theme: Theme, node: NodeBox): string {
  return theme.category[node.category ?? "flow"];
}

function nodeOutline(
  node: NodeBox,
  radius: number,
): { tag: string; attrs: Record<string, string | number> } {
  const { x, y, width: w, height: h } = node.box;
  if (node.type === "decision") {
    const inset = Math.min(14, w / 6);
    const pts: Point[] = [
      { x: x + inset, y },
      { x: x + w - inset, y },
      { x: x + w, y: y + h / 2 },
      { x: x + w - inset, y: y + h },
      { x: x + inset, y: y + h },
      { x, y: y + h / 2 },
    ];
    return {
      tag: "polygon",
      attrs: { points: pts.map((p) => `${num(p.x)},${num(p.y)}`).join(" ") },
    };
  }
  const rx = node.type === "start" || node.type === "end" ? h / 2 : radius;
  return { tag: "rect", attrs: { x, y, width: w, height: h, rx } };
}

/** One node: its outline (shape by type), icon, texts, tag pill and brand badge. */
export function renderNode(node: NodeBox, theme: Theme, showcase: boolean): string {
  const color = categoryColor(theme, node);
  const style = theme.node.style;
  const outline = nodeOutline(node, theme.node.radius);
  const parts: string[] = [];
  const stroke = theme.node.stroke === "category" ? color : theme.node.stroke;
  const fill = showcase ? `url(#${ID}-node-fill)` : theme.node.fill;
  parts.push(
    el(outline.tag, {
      ...outline.attrs,
      fill,
      stroke,
      "stroke-width": theme.node.strokeWidth,
      filter: showcase ? `url(#${ID}-shadow)` : undefined,
    }),
  );
  if (node.type === "end") {
    const { x, y, width: w, height: h } = node.box;
    parts.push(
      el("rect", {
        x: x + 3,
        y: y + 3,
        width: w - 6,
        height: h - 6,
        rx: (h - 6) / 2,
        fill: "none",
        stroke,
        "stroke-width": theme.node.strokeWidth,
      }),
    );
  }
  if (style === "bar" && node.type !== "decision" && node.type !== "start" && node.type !== "end") {
    const { x, y, height: h } = node.box;
    parts.push(el("rect", { x, y, width: 4, height: h, fill: color }));
  }
  const icon = node.icon;
  if (icon.width > 0) {
    const s = icon.width / 26;
    const glyph = (strokeColor: string) =>
      el("path", {
        d: ICON_PATHS[node.type],
        transform: `translate(${num(icon.x + 5 * s)} ${num(icon.y + 5 * s)}) scale(${num(s)})`,
        fill: "none",
        stroke: strokeColor,
        "stroke-width": 1.5,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      });
    if (style === "tile") {
      parts.push(el("rect", { ...icon, rx: 6, fill: color }));
      parts.push(glyph("#ffffff"));
    } else if (style === "glow") {
      parts.push(
        el("rect", {
          ...icon,
          rx: 7,
          fill: color,
          "fill-opacity": 0.16,
          stroke: color,
          "stroke-opacity": 0.5,
          "stroke-width": 1,
        }),
      );
      parts.push(glyph(color));
    } else if (style === "outline") {
      parts.push(
        el("rect", {
          ...icon,
          rx: 0,
          fill: "none",
          stroke: color,
          "stroke-width": 0.75,
          "stroke-dasharray": "2 2",
        }),
      );
      parts.push(glyph(color));
    } else {
      parts.push(glyph(color));
    }
  }
  parts.push(text(node.label, theme.node.label));
  if (node.sublabel) parts.push(text(node.sublabel, theme.node.sublabel));
  if (node.tag) {
    const tagFill = theme.node.tagFill === "category" ? color : theme.node.tagFill;
    parts.push(el("rect", { ...node.tag.pill, rx: node.tag.pill.height / 2, fill: tagFill }));
    parts.push(text(node.tag, theme.node.tagText));
  }
  if (node.brand && node.node.brand) {
    const b = node.brand;
    parts.push(
      el("circle", {
        cx: b.circle.cx,
        cy: b.circle.cy,
        r: b.circle.r,
        fill: node.node.brand.color ?? theme.accent,
        stroke: theme.background,
        "stroke-width": 2,
      }),
    );
    parts.push(
      el(
        "text",
        {
          x: b.circle.cx,
          y: b.circle.cy + b.size * 0.36,
          "font-size": b.size,
          "font-weight": 600,
          fill: "#ffffff",
          "text-anchor": "middle",
        },
        esc(b.monogram),
      ),
    );
  }
  const n = node.node;
  const typeName = n.type;
  const aria = [
    `${typeName}: ${n.label}`,
    n.sublabel,
    n.tag ? `tag ${n.tag}` : undefined,
    n.brand ? n.brand.name : undefined,
  ]
    .filter((s) => s !== undefined && s !== "")
    .join(", ");
  return el(
    "g",
    {
      id: `${ID}-node-${node.id}`,
      class: "node",
      "data-id": node.id,
      "data-type": node.type,
      role: "img",
      "aria-label": aria,
    },
    parts.join(""),
  );
}
