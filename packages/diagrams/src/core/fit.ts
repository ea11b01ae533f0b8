import { round } from "./geometry.js";
import type { Point } from "./model.js";

/** A drawing's size and the transform that fits its content in it (svg/document.ts draws it). */
interface Fit {
  width: number;
  height: number;
  /** Uniform scale of the content, at most 1. */
  scale: number;
  /** Translation after scaling: centres content scaled down to fit. */
  offset: Point;
}

/**
 * The drawing's size: the content's own, or meta.viewBox when one is given, the content then
 * scaled down (never up) to fit and centred. Rounded, like every number of a layout.
 */
export function fitToViewBox(contentW: number, contentH: number, viewBox?: [number, number]): Fit {
  const width = viewBox ? viewBox[0] : contentW;
  const height = viewBox ? viewBox[1] : contentH;
  const scale = Math.min(1, width / contentW, height / contentH);
  return {
    width: round(width),
    height: round(height),
    scale: round(scale * 10000) / 10000,
    offset: { x: round((width - contentW * scale) / 2), y: round((height - contentH * scale) / 2) },
  };
}
