// The part of fontkit (a pdfkit dependency, no types of its own) that choosing fallback fonts uses.
declare module "fontkit" {
  export interface Font {
    postscriptName: string;
    familyName: string;
    unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    layout(text: string): GlyphRun;
  }
  export interface GlyphRun {
    glyphs: Array<{ path: { toSVG(): string } }>;
    positions: Array<{ xAdvance: number; xOffset: number; yOffset: number }>;
    direction: "ltr" | "rtl";
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function openSync(path: string): Font | FontCollection;
}
