import { type Box, boundsOf, simplify } from "../../src/core/geometry.js";
import type { Point } from "../../src/core/model.js";
import { measureText } from "../../src/core/text/measure.js";

/** What a rendered workflow SVG draws, read back from its semantic markup (see rendering.md). */
export interface SvgScene {
  nodes: { id: string; box: Box }[];
  /** Lane, phase and group outlines. */
  outlines: { kind: "lane" | "phase" | "group"; id: string; box: Box }[];
  /** Lane headers, phase header strips and group captions (their text). */
  captions: { id: string; box: Box }[];
  edges: {
    id: string;
    from: string;
    to: string;
    /** The line's corners, from the source's port to the arrow's tip. */
    points: Point[];
    arrow: Box;
  }[];
  /** Edge labels: the background's box and the text, its lines joined by spaces. */
  labels: { edge: string; box: Box; text: string }[];
}

const unescapeXml = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

const attr = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const numAttr = (tag: string, name: string): number => Number(attr(tag, name) ?? "0");

function rectOf(tag: string): Box {
  return {
    x: numAttr(tag, "x"),
    y: numAttr(tag, "y"),
    width: numAttr(tag, "width"),
    height: numAttr(tag, "height"),
  };
}

/** The numbers of a path's `d`, read as (command, coordinates) pairs. */
function pathCommands(d: string): { cmd: string; nums: number[] }[] {
  const out: { cmd: string; nums: number[] }[] = [];
  for (const m of d.matchAll(/([MLQZ])([^MLQZ]*)/g)) {
    const nums = (m[2] ?? "")
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    out.push({ cmd: m[1] as string, nums });
  }
  return out;
}

/** The corners of an edge line: a rounded corner's control point is where the lines meet. */
function corners(d: string): Point[] {
  const pts: Point[] = [];
  for (const { cmd, nums } of pathCommands(d)) {
    if (cmd === "M" || cmd === "L") pts.push({ x: nums[0] ?? 0, y: nums[1] ?? 0 });
    else if (cmd === "Q") {
      pts.push({ x: nums[0] ?? 0, y: nums[1] ?? 0 }, { x: nums[2] ?? 0, y: nums[3] ?? 0 });
    }
  }
  return pts;
}

/** The outermost element group starting at `start` (the index of its `<g`), as text. */
function groupAt(svg: string, start: number): string {
  let depth = 0;
  const re = /<g[\s>]|<\/g>/g;
  re.lastIndex = start;
  for (let m = re.exec(svg); m; m = re.exec(svg)) {
    depth += m[0] === "</g>" ? -1 : 1;
    if (depth === 0) return svg.slice(start, m.index + 4);
  }
  return svg.slice(start);
}

function groups(svg: string, opening: RegExp): { tag: string; body: string }[] {
  const out: { tag: string; body: string }[] = [];
  for (const m of svg.matchAll(opening)) {
    out.push({ tag: m[0], body: groupAt(svg, m.index ?? 0) });
  }
  return out;
}

function firstShape(body: string): Box {
  const shape = /<(rect|polygon|circle|ellipse)\s[^>]*>/.exec(body.slice(2));
  if (!shape) throw new Error(`no shape in ${body.slice(0, 120)}`);
  const tag = shape[0];
  if (shape[1] === "polygon") {
    const nums = (attr(tag, "points") ?? "").split(/[\s,]+/).map(Number);
    const pts: Point[] = [];
    for (let i = 0; i + 1 < nums.length; i += 2) pts.push({ x: nums[i] ?? 0, y: nums[i + 1] ?? 0 });
    return boundsOf(pts);
  }
  if (shape[1] === "circle" || shape[1] === "ellipse") {
    const rx = numAttr(tag, "r") || numAttr(tag, "rx");
    const ry = numAttr(tag, "r") || numAttr(tag, "ry");
    return {
      x: numAttr(tag, "cx") - rx,
      y: numAttr(tag, "cy") - ry,
      width: 2 * rx,
      height: 2 * ry,
    };
  }
  return rectOf(tag);
}

/** The box of a group's caption text, measured as the renderer measures it. */
function captionBox(body: string): Box | undefined {
  const text =
    /<text font-size="([\d.]+)"[^>]*><tspan x="([\d.]+)" y="([\d.]+)">([^<]*)<\/tspan>/.exec(body);
  if (!text) return undefined;
  const size = Number(text[1]);
  const width = measureText(text[4] ?? "", size, "semibold");
  const anchored = /text-anchor="middle"/.test(text[0]);
  const x = Number(text[2]) - (anchored ? width / 2 : 0);
  return { x, y: Number(text[3]) - size, width, height: size * 1.25 };
}

/** Reads the parts of a rendered workflow SVG that routing and labelling are judged on. */
export function readSvgScene(svg: string): SvgScene {
  const scene: SvgScene = { nodes: [], outlines: [], captions: [], edges: [], labels: [] };
  for (const g of groups(svg, /<g id="owd-node-[^"]*" class="node[^"]*"[^>]*>/g)) {
    scene.nodes.push({ id: attr(g.tag, "data-id") ?? "", box: firstShape(g.body) });
  }
  for (const kind of ["lane", "phase", "group"] as const) {
    for (const g of groups(svg, new RegExp(`<g class="${kind}[ "][^>]*>`, "g"))) {
      const id = attr(g.tag, "data-id") ?? "";
      scene.outlines.push({ kind, id, box: firstShape(g.body) });
      // A lane's header cell and a phase's header strip are the second shape drawn; a group's
      // caption (or a phase's without a strip) is its text.
      const second =
        kind === "group" ? undefined : /<rect[^>]*>[\s\S]*?(<rect[^>]*>)/.exec(g.body)?.[1];
      const box = second ? rectOf(second) : kind === "lane" ? undefined : captionBox(g.body);
      if (box) scene.captions.push({ id, box });
    }
  }
  for (const g of groups(svg, /<g id="owd-edge-[^"]*" class="edge[^"]*"[^>]*>/g)) {
    const paths = [...g.body.matchAll(/<path\s[^>]*>/g)].map((m) => m[0]);
    const line = paths.find((p) => attr(p, "class") === "edge-line");
    const head = paths.find((p) => attr(p, "class") !== "edge-line");
    if (!line || !head) throw new Error(`edge without line or head: ${g.tag}`);
    const headPts = corners(attr(head, "d") ?? "");
    const tip = headPts[1] as Point;
    scene.edges.push({
      id: attr(g.tag, "data-id") ?? "",
      from: attr(g.tag, "data-from") ?? "",
      to: attr(g.tag, "data-to") ?? "",
      points: simplify([...corners(attr(line, "d") ?? ""), tip]),
      arrow: boundsOf(headPts),
    });
  }
  for (const g of groups(svg, /<g class="edge-label"[^>]*>/g)) {
    const rect = /<rect\s[^>]*>/.exec(g.body)?.[0];
    const text = [...g.body.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)]
      .map((m) => unescapeXml(m[1] ?? ""))
      .join(" ");
    if (rect) {
      scene.labels.push({ edge: attr(g.tag, "data-edge") ?? "", box: rectOf(rect), text });
    }
  }
  return scene;
}
