import type { LaidOut } from "../core/diagram-type.js";
import { fontFiles } from "../core/text/fonts.js";
import { drawnTexts } from "./fonts/drawn-text.js";
import { chooseFallbackFonts } from "./fonts/fallback.js";
import type { TextOptions } from "./fonts/text-options.js";
import { fallbackTextAsOutlines } from "./fonts/text-paths.js";
import { uncoveredWarning } from "./fonts/uncovered-warning.js";

export interface PdfOptions extends TextOptions {
  /** The document title (PDF metadata); usually meta.title. */
  title?: string;
  /** The document language (meta.locale). */
  lang?: string;
  /**
   * The creation date recorded in the PDF. Default: SOURCE_DATE_EPOCH (seconds) when set, so
   * reproducible builds get byte-identical PDFs, else now.
   */
  creationDate?: Date;
}

function defaultCreationDate(): Date {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000);
  return new Date();
}

const REGULAR = "Inter";
const SEMIBOLD = "Inter-SemiBold";

/** One page: a drawing and its size. */
interface PdfPage {
  svg: string;
  size: LaidOut;
}

/**
 * Draws SVGs produced by a type's render into a vector PDF, one page per drawing (a type's
 * views), each page the size of its drawing (one diagram unit = one point), text set in the
 * same bundled Inter font, embedded as a subset; text holding characters Inter lacks is drawn
 * as outlines from a fallback font (the given files, then the system's; svg-to-pdfkit's own
 * glyph placing drops Thai and Indic marks). pdfkit and svg-to-pdfkit load on first use.
 */
export async function renderPdf(pages: PdfPage[], options: PdfOptions = {}): Promise<Buffer> {
  const first = pages[0];
  if (!first) throw new Error("a PDF needs at least one page");
  const [{ default: PDFDocument }, { default: SVGtoPDF }, fallback] = await Promise.all([
    import("pdfkit"),
    import("svg-to-pdfkit"),
    chooseFallbackFonts(
      pages.flatMap((p) => drawnTexts(p.svg)),
      options,
    ),
  ]);
  if (fallback.uncovered.length > 0) options.onWarning?.(uncoveredWarning(fallback.uncovered));
  const files = fontFiles();
  const doc = new PDFDocument({
    size: [first.size.width, first.size.height],
    margin: 0,
    autoFirstPage: true,
    info: {
      Title: options.title ?? "Diagram",
      Creator: "orderline-diagrams",
      Producer: "orderline-diagrams",
      CreationDate: options.creationDate ?? defaultCreationDate(),
    },
    displayTitle: true,
    lang: options.lang ?? "en",
  });
  doc.registerFont(REGULAR, files.regular);
  doc.registerFont(SEMIBOLD, files.semibold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const drawn = await Promise.all(pages.map((p) => fallbackTextAsOutlines(p.svg, fallback.faces)));
  pages.forEach(({ size }, i) => {
    const svg = drawn[i] as string;
    if (i > 0) doc.addPage({ size: [size.width, size.height], margin: 0 });
    SVGtoPDF(doc, svg, 0, 0, {
      width: size.width,
      height: size.height,
      assumePt: true,
      fontCallback: (_family: string, bold: boolean) => (bold ? SEMIBOLD : REGULAR),
      // Filters (the showcase shadows) have no PDF equivalent; the PDF is drawn without them.
      warningCallback: () => {},
    });
  });
  doc.end();
  return done;
}
