import type { BrandMark } from "../model.js";

/** The badge's letters: the mark's own monogram, else the name's first letters (two at most). */
export function brandMonogram(brand: BrandMark): string {
  return (
    brand.monogram ??
    brand.name
      .split(/\s+/)
      .map((w) => w[0] ?? "")
      .join("")
      .slice(0, 2)
      .toUpperCase()
  );
}
