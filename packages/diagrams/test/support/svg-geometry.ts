import { type Box, boundsOf } from "../../src/core/geometry.js";
import type { Point } from "../../src/core/model.js";
import { lineHeight } from "../../src/core/text/block.js";
import { measureText } from "../../src/core/text/measure.js";

/**
 * Reads the geometry back out of a rendered SVG, for tests that judge the drawing itself:
 * every text line's box (from the same font metrics the layout uses) and every rect, circle
 * and straight path, each with the element it belongs to (the innermost <g> that has a
 * data-id or a class naming a part: message, node, note, fragment, divider, box, or the parts
 * a caller names). Rounded corners (Q) read back as the corner they round, so an edge's
 * segments are its orthogonal polyline.
 */

export interface Owner {
  kind: string;
  /** data-id, else data-edge (an edge label names its edge), else data-index. */
  id: string;
  /** Every attribute of the owning <g>: data-parent, data-from, data-to, class… */
  attrs: Record<string, string>;
}

export interface SvgText {
  owner: Owner | undefined;
  /** The whole <text> element's box (every line). */
  box: Box;
  lines: string[];
  /** Each line's own box, in the order of `lines`. */
  lineBoxes: Box[];
  /** Index of the <text> element in the document. */
  index: number;
}

interface SvgShape {
  owner: Owner | undefined;
  tag: "rect" | "path" | "circle" | "polygon";
  class?: string;
  box: Box;
  /** Straight segments of a path made of M, L, H, V, Q (as its corner) and Z commands. */
  segments: [Point, Point][];
  fill?: string;
}

export interface SvgGeometry {
  width: number;
  height: number;
  texts: SvgText[];
  shapes: SvgShape[];
}

const ATTR = /([\w:-]+)="([^"]*)"/g;
const attrs = (tag: string) => Object.fromEntries([...tag.matchAll(ATTR)].map((m) => [m[1], m[2]]));
const unescapeXml = (t: string) =>
  t
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

const PARTS = ["message", "node", "note", "fragment", "divider", "box"];

function pathSegments(d: string): [Point, Point][] {
  const segments: [Point, Point][] = [];
  let at: Point = { x: 0, y: 0 };
  let start: Point = at;
  for (const [, cmd, args] of d.matchAll(/([MLHVZQ])([^MLHVZQ]*)/gi)) {
    const n = (args ?? "")
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (cmd === "M") {
      at = { x: n[0] ?? 0, y: n[1] ?? 0 };
      start = at;
    } else if (cmd === "L") {
      const to = { x: n[0] ?? 0, y: n[1] ?? 0 };
      segments.push([at, to]);
      at = to;
    } else if (cmd === "H") {
      const to = { x: n[0] ?? 0, y: at.y };
      segments.push([at, to]);
      at = to;
    } else if (cmd === "V") {
      const to = { x: at.x, y: n[0] ?? 0 };
      segments.push([at, to]);
      at = to;
    } else if (cmd === "Q") {
      // A rounded corner: through its control point, which is the corner itself.
      const corner = { x: n[0] ?? 0, y: n[1] ?? 0 };
      const to = { x: n[2] ?? 0, y: n[3] ?? 0 };
      segments.push([at, corner], [corner, to]);
      at = to;
    } else if (cmd === "Z") {
      segments.push([at, start]);
      at = start;
    }
  }
  return segments;
}

/**
 * Reads an SVG of ours. `parts` are the group classes that own what they hold (the innermost
 * such group is a shape's or a text's owner); the default suits sequence diagrams.
 */
export function readSvg(source: string, parts: readonly string[] = PARTS): SvgGeometry {
  // Patterns, gradients and filters draw nothing by themselves.
  const svg = source.replaceAll(/<defs>.*?<\/defs>/gs, "");
  const root = attrs(/<svg [^>]*>/.exec(svg)?.[0] ?? "");
  const out: SvgGeometry = {
    width: Number(root.width),
    height: Number(root.height),
    texts: [],
    shapes: [],
  };
  const stack: (Owner | undefined)[] = [];
  const owner = () => [...stack].reverse().find((o) => o !== undefined);
  const token = /<(\/?)(g|text|rect|path|circle|polygon)\b([^>]*?)(\/?)>|<\/text>/g;
  for (let m = token.exec(svg); m !== null; m = token.exec(svg)) {
    const [, closing, tag, rest = ""] = m;
    if (tag === "g") {
      if (closing) stack.pop();
      else {
        const a = attrs(rest);
        const kind = parts.find((p) => (a.class ?? "").split(" ").includes(p));
        const id = a["data-id"] ?? a["data-edge"] ?? a["data-index"] ?? "";
        stack.push(kind ? { kind, id, attrs: a } : undefined);
      }
      continue;
    }
    if (tag === "text" && !closing) {
      const a = attrs(rest);
      const end = svg.indexOf("</text>", token.lastIndex);
      const body = svg.slice(token.lastIndex, end);
      token.lastIndex = end;
      const size = Number(a["font-size"]);
      const weight = a["font-weight"] === "600" ? "semibold" : "regular";
      const spans = [...body.matchAll(/<tspan ([^>]*)>([^<]*)<\/tspan>/g)];
      const lines =
        spans.length > 0 ? spans.map((s) => unescapeXml(s[2] ?? "")) : [unescapeXml(body)];
      const anchors = spans.length > 0 ? spans.map((s) => attrs(s[1] ?? "")) : [a];
      const boxes = lines.map((line, i) => {
        const w = measureText(line, size, weight);
        const x0 = Number(anchors[i]?.x);
        const baseline = Number(anchors[i]?.y);
        const x = a["text-anchor"] === "middle" ? x0 - w / 2 : x0;
        const top = baseline - size * 0.98;
        return { x, y: top, width: w, height: spans.length > 0 ? lineHeight(size) : size };
      });
      const all = boundsOf(boxes.flatMap((b) => [b, { x: b.x + b.width, y: b.y + b.height }]));
      out.texts.push({
        owner: owner(),
        box: all,
        lines,
        lineBoxes: boxes,
        index: out.texts.length,
      });
      continue;
    }
    if (closing || tag === "text") continue;
    const a = attrs(rest);
    const shape: SvgShape = {
      owner: owner(),
      tag: tag as SvgShape["tag"],
      box: { x: 0, y: 0, width: 0, height: 0 },
      segments: [],
    };
    if (a.class) shape.class = a.class;
    if (a.fill) shape.fill = a.fill;
    if (tag === "rect") {
      shape.box = {
        x: Number(a.x ?? 0),
        y: Number(a.y ?? 0),
        width: Number(a.width),
        height: Number(a.height),
      };
    } else if (tag === "circle") {
      const r = Number(a.r);
      shape.box = { x: Number(a.cx) - r, y: Number(a.cy) - r, width: 2 * r, height: 2 * r };
    } else if (tag === "path") {
      shape.segments = pathSegments(a.d ?? "");
      if (shape.segments.length === 0) continue;
      shape.box = boundsOf(shape.segments.flat());
    } else {
      const pts = (a.points ?? "").split(" ").map((p: string) => {
        const [x, y] = p.split(",").map(Number);
        return { x: x ?? 0, y: y ?? 0 };
      });
      shape.box = boundsOf(pts);
    }
    out.shapes.push(shape);
  }
  return out;
}
