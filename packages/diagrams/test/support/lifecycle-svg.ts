import type { Box } from "../../src/core/geometry.js";
import type { Point } from "../../src/core/model.js";
import { measureText } from "../../src/core/text/measure.js";

/**
 * Reads back what an SVG of ours draws, from the SVG text alone: state shapes, text lines,
 * transition lines and label backgrounds, so geometric tests judge the output users get.
 */

const attr = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const num = (tag: string, name: string): number => Number(attr(tag, name) ?? Number.NaN);

interface DrawnState {
  id: string;
  shape: string;
  parent: string | undefined;
  box: Box;
}

export interface DrawnText {
  /** The data-id of the closest group around it: what the text belongs to. */
  owner: string;
  text: string;
  box: Box;
}

export interface DrawnSvg {
  states: DrawnState[];
  texts: DrawnText[];
  /** Transition id → its line as a polyline (corners' curve points included). */
  edges: Map<string, Point[]>;
  /** Transition id → its label's background. */
  labels: Map<string, Box>;
  /** Transitions from a state to itself (self-loops). */
  loops: Set<string>;
}

/** Every coordinate pair of a path made of M, L, H, V and Q commands, in order. */
function pathPoints(d: string): Point[] {
  const points: Point[] = [];
  let at: Point = { x: 0, y: 0 };
  for (const [, cmd, args] of d.matchAll(/([MLHVQZ])([^MLHVQZ]*)/g)) {
    const n = (args ?? "")
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (cmd === "H") at = { x: n[0] as number, y: at.y };
    else if (cmd === "V") at = { x: at.x, y: n[0] as number };
    else if (cmd === "Z") continue;
    else {
      for (let i = 0; i + 1 < n.length; i += 2) {
        at = { x: n[i] as number, y: n[i + 1] as number };
        points.push(at);
      }
      continue;
    }
    points.push(at);
  }
  return points;
}

function shapeBox(body: string): Box {
  const rect = /<rect\s[^>]*>/.exec(body)?.[0];
  if (rect) {
    return {
      x: num(rect, "x"),
      y: num(rect, "y"),
      width: num(rect, "width"),
      height: num(rect, "height"),
    };
  }
  const circle = /<circle\s[^>]*>/.exec(body)?.[0];
  if (circle) {
    const r = num(circle, "r");
    return { x: num(circle, "cx") - r, y: num(circle, "cy") - r, width: 2 * r, height: 2 * r };
  }
  const path = /<path\s[^>]*>/.exec(body)?.[0] as string;
  const pts = pathPoints(attr(path, "d") ?? "");
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The boxes of a <text>'s lines: baseline y, font size, anchor and measured width. */
function textBoxes(tag: string, inner: string, owner: string): DrawnText[] {
  const size = num(tag, "font-size");
  const weight = attr(tag, "font-weight") === "600" ? "semibold" : "regular";
  const middle = attr(tag, "text-anchor") === "middle";
  const out: DrawnText[] = [];
  for (const [, span, content] of inner.matchAll(/<tspan([^>]*)>([^<]*)<\/tspan>/g)) {
    const text = (content ?? "")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&");
    const width = measureText(text, size, weight);
    const x = num(span as string, "x") - (middle ? width / 2 : 0);
    // The line's box: from the ascent above the baseline to the descent below it.
    const baseline = num(span as string, "y");
    out.push({ owner, text, box: { x, y: baseline - size * 0.98, width, height: size * 1.2 } });
  }
  return out;
}

export function readSvg(svg: string): DrawnSvg {
  const states: DrawnState[] = [];
  const texts: DrawnText[] = [];
  const edges = new Map<string, Point[]>();
  const labels = new Map<string, Box>();
  const loops = new Set<string>();
  // Our groups never nest the elements read here, so each <g …>…</g> without an inner <g> is one.
  for (const [, open, body] of svg.matchAll(/<g(\s[^>]*)>((?:(?!<g[\s>]).)*?)<\/g>/gs)) {
    const tag = open as string;
    const inner = body as string;
    const cls = attr(tag, "class") ?? "";
    const owner = attr(tag, "data-id") ?? attr(tag, "data-edge") ?? attr(tag, "class") ?? "";
    const classes = cls.split(" ");
    if (classes.includes("state")) {
      states.push({
        id: attr(tag, "data-id") as string,
        shape: (classes.find((c) => c.startsWith("state-")) ?? "").slice("state-".length),
        parent: attr(tag, "data-parent"),
        box: shapeBox(inner),
      });
    } else if (cls.startsWith("edge ")) {
      const line = /<path\s[^>]*class="edge-line"[^>]*>/.exec(inner)?.[0] as string;
      edges.set(attr(tag, "data-id") as string, pathPoints(attr(line, "d") ?? ""));
      if (attr(tag, "data-from") === attr(tag, "data-to"))
        loops.add(attr(tag, "data-id") as string);
    } else if (cls === "edge-label") {
      const rect = /<rect\s[^>]*>/.exec(inner)?.[0] as string;
      labels.set(attr(tag, "data-edge") as string, {
        x: num(rect, "x"),
        y: num(rect, "y"),
        width: num(rect, "width"),
        height: num(rect, "height"),
      });
    }
    for (const [, t, content] of inner.matchAll(/<text([^>]*)>(.*?)<\/text>/gs)) {
      texts.push(...textBoxes(t as string, content as string, owner));
    }
  }
  return { states, texts, edges, labels, loops };
}
