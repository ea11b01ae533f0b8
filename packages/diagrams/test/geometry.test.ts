import { describe, expect, it } from "vitest";
import {
  boxContains,
  boxesOverlap,
  boxInside,
  outlineCrosses,
  segmentHitsBox,
  segmentMeetsBox,
} from "../src/core/geometry.js";

const box = { x: 10, y: 10, width: 20, height: 10 };

describe("core geometry, as layouts and geometric tests use it", () => {
  it("boxes overlap by their interiors; touching is not overlapping", () => {
    expect(boxesOverlap(box, { x: 29, y: 19, width: 5, height: 5 })).toBe(true);
    expect(boxesOverlap(box, { x: 30, y: 10, width: 5, height: 5 })).toBe(false);
    expect(boxesOverlap(box, { x: 0, y: 0, width: 100, height: 100 })).toBe(true);
    // A tolerance lets boxes share a sliver (anti-aliasing, rounding) without counting.
    expect(boxesOverlap(box, { x: 29.5, y: 10, width: 5, height: 5 }, 1)).toBe(false);
  });

  it("contains (and inside, the other way round) allows shared edges", () => {
    expect(boxInside({ x: 11, y: 11, width: 19, height: 9 }, box)).toBe(true);
    expect(boxContains(box, box)).toBe(true);
    expect(boxContains(box, { x: 11, y: 11, width: 19, height: 9 })).toBe(true);
    expect(boxContains(box, { x: 11, y: 11, width: 20, height: 9 })).toBe(false);
  });

  it("an outline crosses a label only where a side passes through it", () => {
    expect(outlineCrosses({ x: 25, y: 12, width: 10, height: 4 }, box)).toBe(true);
    expect(outlineCrosses({ x: 12, y: 12, width: 4, height: 4 }, box)).toBe(false);
  });

  it("axis-aligned segments hit the interior; at any angle they meet the closed box", () => {
    expect(segmentHitsBox({ x: 0, y: 15 }, { x: 50, y: 15 }, box)).toBe(true);
    expect(segmentHitsBox({ x: 0, y: 10 }, { x: 50, y: 10 }, box)).toBe(false);
    expect(segmentMeetsBox({ x: 0, y: 10 }, { x: 50, y: 10 }, box)).toBe(true);
    expect(segmentMeetsBox({ x: 0, y: 0 }, { x: 40, y: 40 }, box)).toBe(true);
    expect(segmentMeetsBox({ x: 0, y: 0 }, { x: 9, y: 9 }, box)).toBe(false);
    expect(segmentMeetsBox({ x: 0, y: 40 }, { x: 40, y: 25 }, box)).toBe(false);
    expect(segmentMeetsBox({ x: 20, y: 0 }, { x: 20, y: 5 }, box)).toBe(false);
  });
});
