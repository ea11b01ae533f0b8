import type { Description, LaidOut } from "../core/diagram-type.js";
import type { VisualPreset } from "../core/model.js";
import { isTypeName, loadType } from "../types/index.js";

export const OUTPUT_FORMATS = ["svg", "png", "pdf", "html"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface ExportOptions {
  preset?: VisualPreset;
  /** PNG only: pixels per diagram unit. */
  scale?: number;
  /** The diagram's layout, when the caller has already made it (saves making it again). */
  layout?: LaidOut;
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
  const layout = options.layout ?? (await type.layout(diagram));
  const svg = type.render(diagram, layout, options.preset ? { preset: options.preset } : {});
  switch (format) {
    case "svg":
      return svg;
    case "png": {
      const { renderPng } = await import("./png.js");
      return renderPng(svg, options.scale === undefined ? {} : { scale: options.scale });
    }
    case "pdf": {
      const { renderPdf } = await import("./pdf.js");
      const pdfOptions: { title: string; lang?: string } = { title: diagram.meta.title };
      if (diagram.meta.locale) pdfOptions.lang = diagram.meta.locale;
      return renderPdf(svg, layout, pdfOptions);
    }
    case "html": {
      const { renderHtml } = await import("./html.js");
      return renderHtml(diagram.meta, svg, type.interaction?.(diagram, layout));
    }
  }
}
