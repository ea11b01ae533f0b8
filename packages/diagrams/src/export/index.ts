import type { Description, LaidOut } from "../core/diagram-type.js";
import type { VisualPreset } from "../core/model.js";
import { isTypeName, loadType } from "../types/index.js";
import type { TextOptions } from "./fonts/text-options.js";
import type { PdfOptions } from "./pdf.js";

export const OUTPUT_FORMATS = ["svg", "png", "pdf", "html"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ExportOptions {
  preset?: VisualPreset;
  /** PNG only: pixels per diagram unit. */
  scale?: number;
  /** The diagram's layout, when the caller has already made it (saves making it again). */
  layout?: LaidOut;
  /**
   * Of a type with views: the one to draw. Unset: SVG and PNG draw the first view, PDF gives
   * one page per view and HTML a step per view.
   */
  view?: string;
  /**
   * PNG and PDF: font files (.ttf, .otf, .ttc) tried before the system's fonts for characters
   * the bundled Inter lacks (CJK, Arabic, Thai, Devanagari…).
   */
  fonts?: readonly string[];
  /** PNG and PDF: told of characters that no font draws (they show as empty boxes). */
  onWarning?: (message: string) => void;
}

/**
 * Renders a validated description, of any registered type, to one output format. SVG and HTML
 * come back as text, PNG and PDF as bytes. Each format's heavy dependency is imported only when
 * that format is asked for.
 */
export async function exportDiagram(
  diagram: Description,
  format: OutputFormat,
  options: ExportOptions = {},
): Promise<string | Buffer> {
  if (!isTypeName(diagram.diagram_type)) {
    throw new Error(`no diagram type "${diagram.diagram_type}" is registered`);
  }
  const type = await loadType(diagram.diagram_type);
  const layout = options.layout ?? (await type.layout(diagram, options.view));
  const renderOptions = options.preset ? { preset: options.preset } : {};
  const svg = type.render(diagram, layout, renderOptions);
  // Every view, for the formats that hold several drawings (PDF pages, HTML steps).
  const infos = options.view === undefined ? (type.views?.(diagram) ?? []) : [];
  const all = async () =>
    infos.length > 1
      ? Promise.all(
          infos.map(async (info, i) => {
            const l = i === 0 ? layout : await type.layout(diagram, info.id);
            return { info, layout: l, svg: i === 0 ? svg : type.render(diagram, l, renderOptions) };
          }),
        )
      : undefined;
  const text: TextOptions = {};
  if (options.fonts) text.fonts = options.fonts;
  if (options.onWarning) text.onWarning = options.onWarning;
  if (diagram.meta.locale) text.locale = diagram.meta.locale;
  switch (format) {
    case "svg":
      return svg;
    case "png": {
      const { renderPng } = await import("./png.js");
      return renderPng(svg, options.scale === undefined ? text : { ...text, scale: options.scale });
    }
    case "pdf": {
      const { renderPdf } = await import("./pdf.js");
      const pdfOptions: PdfOptions = { ...text, title: diagram.meta.title };
      if (diagram.meta.locale) pdfOptions.lang = diagram.meta.locale;
      const views = await all();
      const pages = views?.map((v) => ({ svg: v.svg, size: v.layout })) ?? [{ svg, size: layout }];
      return renderPdf(pages, pdfOptions);
    }
    case "html": {
      const { renderHtml } = await import("./html.js");
      const views = await all();
      if (!views) return renderHtml(diagram.meta, svg, type.interaction?.(diagram, layout));
      const cards = Object.assign(
        {},
        ...views.map((v) => type.interaction?.(diagram, v.layout)?.cards ?? {}),
      );
      const first = type.interaction?.(diagram, layout);
      return renderHtml(
        diagram.meta,
        svg,
        first ? { ...first, cards } : undefined,
        views.map((v) => ({ ...v.info, svg: v.svg })),
      );
    }
  }
}
