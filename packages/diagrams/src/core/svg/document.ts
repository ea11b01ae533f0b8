import type { Box } from "../geometry.js";
import type { EdgeRole, LegendKey, Meta, Point, QualityProfile, VisualPreset } from "../model.js";
import type { TextBlock } from "../text/block.js";
import { FONT_STACK } from "../text/measure.js";
import { THEMES, type Theme } from "../theme.js";
import { edgeStyle } from "./edge.js";
import { text } from "./text.js";
import { el, esc, ID, num } from "./xml.js";

/**
 * The parts of an SVG document every type draws the same way: the root element with its
 * accessible title and description, the preset's background and grid, the showcase
 * definitions, the title block, the legend and the fit-to-viewBox transform. A type's renderer
 * draws its own body and hands it to `svgDocument`.
 */

/** A legend line: a component category (colour swatch) or a flow role (line sample). */
export type LegendItem =
  | {
      kind: "category";
      key: LegendKey;
      label: string;
      description?: string;
      swatch: Box;
      text: TextBlock;
    }
  | { kind: "flow"; key: EdgeRole; label: string; swatch: Box; text: TextBlock };

export interface LegendLayout {
  box: Box;
  title: TextBlock;
  items: LegendItem[];
}

/** What the document frame needs of a layout. */
export interface Frame {
  width: number;
  height: number;
  /** Uniform scale applied to the drawing to fit a meta.viewBox smaller than its content. */
  scale: number;
  /** Translation applied after scaling (centres a fitted drawing). */
  offset: Point;
  title: TextBlock;
  subtitle?: TextBlock;
}

/** The preset and quality profile in force: options first, then meta, then the defaults. */
export function look(
  meta: Meta,
  options: { preset?: VisualPreset; quality?: QualityProfile } = {},
): { theme: Theme; showcase: boolean } {
  return {
    theme: THEMES[options.preset ?? meta.visual_preset ?? "classic"],
    showcase: (options.quality ?? meta.quality_profile) === "showcase",
  };
}

/** "1 lane", "3 lanes": a count and its noun, for the summary a type hands `svgDocument`. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The whole document around a type's drawing: the root element whose <desc> is the subtitle,
 * then the type's one-sentence `summary`, for screen readers; then the title block and `body`,
 * fitted into meta.viewBox.
 */
export function svgDocument(
  meta: Meta,
  frame: Frame,
  theme: Theme,
  showcase: boolean,
  summary: string,
  body: string,
): string {
  const description = [meta.subtitle, summary].filter((p) => p !== undefined && p !== "").join(" ");
  return (
    svgOpen(meta, frame, theme, showcase, description) +
    el("g", { transform: fitTransform(frame) }, titleBlock(frame, theme, showcase) + body) +
    SVG_CLOSE
  );
}

/** The root element, <title>, <desc>, <defs>, background and grid. */
function svgOpen(
  meta: Meta,
  frame: Frame,
  theme: Theme,
  showcase: boolean,
  description: string,
): string {
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(frame.width)}" height="${num(frame.height)}" viewBox="0 0 ${num(frame.width)} ${num(frame.height)}" role="img" aria-labelledby="${ID}-title ${ID}-desc" font-family="${esc(FONT_STACK)}" data-preset="${theme.name}"${meta.locale ? ` xml:lang="${esc(meta.locale)}"` : ""}>`,
  );
  out.push(el("title", { id: `${ID}-title` }, esc(meta.title)));
  out.push(el("desc", { id: `${ID}-desc` }, esc(description)));
  out.push(svgDefs(theme, showcase));
  out.push(el("rect", { width: frame.width, height: frame.height, fill: theme.background }));
  if (theme.grid)
    out.push(el("rect", { width: frame.width, height: frame.height, fill: `url(#${ID}-grid)` }));
  return out.join("");
}

const SVG_CLOSE = "</svg>\n";

/** The transform that fits the drawing into a smaller meta.viewBox, or undefined. */
function fitTransform(frame: Frame): string | undefined {
  return frame.scale !== 1 || frame.offset.x !== 0 || frame.offset.y !== 0
    ? `translate(${num(frame.offset.x)} ${num(frame.offset.y)}) scale(${frame.scale})`
    : undefined;
}

/** The title, the preset's title rule (or the showcase underline) and the subtitle. */
function titleBlock(frame: Frame, theme: Theme, showcase: boolean): string {
  const body: string[] = [];
  body.push(text(frame.title, theme.text));
  if (theme.titleRule) {
    const y = frame.title.box.y - 8;
    body.push(el("rect", { x: frame.title.box.x, y, width: 40, height: 3, fill: theme.accent }));
  } else if (showcase) {
    const y = frame.title.box.y + frame.title.box.height + 1;
    body.push(
      el("rect", { x: frame.title.box.x, y, width: 28, height: 2, rx: 1, fill: theme.accent }),
    );
  }
  if (frame.subtitle) body.push(text(frame.subtitle, theme.muted));
  return body.join("");
}

/** The legend: category swatches and flow line samples, each with its text. */
export function renderLegend(legend: LegendLayout, theme: Theme): string {
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
  return el(
    "g",
    { class: "legend", role: "group", "aria-label": legend.title.lines.join(" ") },
    text(legend.title, theme.text) + items,
  );
}

/**
 * Shared SVG definitions: the blueprint grid, and for the showcase profile a soft shadow and
 * the node and lane-header gradients (`url(#<ID>-node-fill)`, `url(#<ID>-header-fill)`).
 */
function svgDefs(theme: Theme, showcase: boolean): string {
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
