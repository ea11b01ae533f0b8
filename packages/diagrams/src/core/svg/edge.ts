import { arrowheadHalfWidth, arrowheadLength } from "../arrowhead.js";
import type { Box } from "../geometry.js";
import type { EdgeRole, EdgeVariant, Point } from "../model.js";
import type { Theme } from "../theme.js";
import type { EdgeBox } from "./boxes.js";
import { text } from "./text.js";
import { el, ID, num } from "./xml.js";

/** The polyline as a path with rounded corners of at most `radius`. */
function edgePath(points: Point[], radius: number): string {
  const first = points[0] as Point;
  let d = `M${num(first.x)} ${num(first.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const a = points[i - 1] as Point;
    const b = points[i] as Point;
    const c = points[i + 1] as Point;
    const lenIn = Math.abs(b.x - a.x) + Math.abs(b.y - a.y);
    const lenOut = Math.abs(c.x - b.x) + Math.abs(c.y - b.y);
    const r = Math.min(radius, lenIn / 2, lenOut / 2);
    if (r <= 0.5) {
      d += `L${num(b.x)} ${num(b.y)}`;
      continue;
    }
    const inX = b.x - Math.sign(b.x - a.x) * r;
    const inY = b.y - Math.sign(b.y - a.y) * r;
    const outX = b.x + Math.sign(c.x - b.x) * r;
    const outY = b.y + Math.sign(c.y - b.y) * r;
    d += `L${num(inX)} ${num(inY)}Q${num(b.x)} ${num(b.y)} ${num(outX)} ${num(outY)}`;
  }
  const last = points[points.length - 1] as Point;
  d += `L${num(last.x)} ${num(last.y)}`;
  return d;
}

interface EdgeStyle {
  color: string;
  dash?: string;
  open: boolean;
  opacity?: number;
  cap: "butt" | "round";
}

export function edgeStyle(
  role: EdgeRole,
  variant: EdgeVariant | undefined,
  theme: Theme,
): EdgeStyle {
  const style: EdgeStyle = { color: theme.edge[role], open: false, cap: "butt" };
  if (role === "async") {
    style.dash = "6 4";
    style.open = true;
  } else if (role === "return") {
    style.dash = "10 3 2 3";
    style.open = true;
  } else if (role === "error") {
    style.dash = "4 3";
  }
  switch (variant) {
    case "emphasis":
      style.color = theme.accent === theme.background ? style.color : theme.edge.main;
      break;
    case "muted":
      style.opacity = 0.45;
      break;
    case "dashed":
      style.dash = "6 4";
      break;
    case "dotted":
      style.dash = "0.5 4";
      style.cap = "round";
      break;
    case "security":
      style.color = theme.security;
      break;
    default:
      break;
  }
  return style;
}

/** One edge: its rounded orthogonal path and arrowhead, styled by role and variant. */
export function renderEdge(edge: EdgeBox, theme: Theme, labels: Map<string, string>): string {
  const style = { ...edgeStyle(edge.role, edge.edge.variant, theme), ...edge.style };
  const sw = edge.strokeWidth;
  const headLen = arrowheadLength(sw);
  const headHalf = arrowheadHalfWidth(sw);
  const { tip, dx, dy } = edge.arrow;
  // Stop the line where the arrowhead starts so its end never shows past the point.
  const pts = edge.points.slice();
  const last = pts[pts.length - 1] as Point;
  const before = pts[pts.length - 2] as Point;
  const segLen = Math.abs(last.x - before.x) + Math.abs(last.y - before.y);
  const cut = style.open ? sw / 2 : Math.min(headLen * 0.8, Math.max(0, segLen - 1));
  pts[pts.length - 1] = { x: last.x - dx * cut, y: last.y - dy * cut };
  const base = { x: tip.x - dx * headLen, y: tip.y - dy * headLen };
  const left = { x: base.x - dy * headHalf, y: base.y + dx * headHalf };
  const right = { x: base.x + dy * headHalf, y: base.y - dx * headHalf };
  const head = style.open
    ? el("path", {
        d: `M${num(left.x)} ${num(left.y)}L${num(tip.x)} ${num(tip.y)}L${num(right.x)} ${num(right.y)}`,
        fill: "none",
        stroke: style.color,
        "stroke-width": Math.max(1.25, sw),
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      })
    : el("path", {
        d: `M${num(left.x)} ${num(left.y)}L${num(tip.x)} ${num(tip.y)}L${num(right.x)} ${num(right.y)}Z`,
        fill: style.color,
      });
  const line = el("path", {
    class: "edge-line",
    d: edgePath(pts, theme.edge.corner),
    fill: "none",
    stroke: style.color,
    "stroke-width": sw,
    "stroke-dasharray": style.dash,
    "stroke-linecap": style.cap,
    "stroke-linejoin": "round",
  });
  const labelOf = (id: string) => labels.get(id) ?? id;
  const aria = `${edge.role} flow from ${labelOf(edge.edge.from)} to ${labelOf(edge.edge.to)}${edge.edge.label ? `: ${edge.edge.label}` : ""}`;
  return el(
    "g",
    {
      id: `${ID}-edge-${edge.id}`,
      class: `edge edge-${edge.role}${edge.className ? ` ${edge.className}` : ""}`,
      "data-id": edge.id,
      "data-from": edge.edge.from,
      "data-to": edge.edge.to,
      role: "img",
      "aria-label": edge.ariaLabel ?? aria,
      opacity: style.opacity,
    },
    line + head + (edge.decorations ?? ""),
  );
}

/** The rounded rect behind a line's label; a type may make it more opaque or outline it. */
export function labelBackground(
  box: Box,
  theme: Theme,
  look: { opacity?: number; outline?: string } = {},
): string {
  // The box's four numbers named one by one: spreading it costs more than writing the element.
  return el("rect", {
    x: box.x,
    y: box.y,
    width: box.width,
    height: box.height,
    rx: 3,
    fill: theme.edge.labelFill,
    "fill-opacity": look.opacity ?? 0.92,
    stroke: look.outline,
    "stroke-width": look.outline === undefined ? undefined : 0.75,
  });
}

/**
 * The group holding a line's label, `g.edge-label[data-edge]`: the HTML page lights it with
 * its line, and screen readers skip it (the line's own name says the label).
 */
export function edgeLabelGroup(edgeId: string, content: string): string {
  return el("g", { class: "edge-label", "data-edge": edgeId, "aria-hidden": "true" }, content);
}

/** An edge label on its background. */
export function renderEdgeLabel(edge: EdgeBox, theme: Theme): string {
  if (!edge.label) return "";
  return edgeLabelGroup(
    edge.id,
    labelBackground(edge.label.background, theme) +
      text(edge.label, theme.edge.labelText, "middle"),
  );
}
