import type { Box } from "../geometry.js";
import type { Point } from "../model.js";

/** A box measured along the layers (the flow) and across them. */
export interface Abstract {
  along0: number;
  across0: number;
  along: number;
  across: number;
}

/** Turns the layout's own frame (layers run along, nodes of a layer stack across) into x/y. */
export interface Frame {
  size(s: { width: number; height: number }): { along: number; across: number };
  toReal(a: Abstract): Box;
  fromReal(b: Box): Abstract;
  point(p: { along: number; across: number }): Point;
}

export function frame(direction: "right" | "down" | "left" | "up"): Frame {
  const horizontal = direction === "right" || direction === "left";
  const flip = direction === "left" || direction === "up";
  return {
    size: (s) =>
      horizontal ? { along: s.width, across: s.height } : { along: s.height, across: s.width },
    toReal: (a) => {
      const along0 = flip ? -(a.along0 + a.along) : a.along0;
      return horizontal
        ? { x: along0, y: a.across0, width: a.along, height: a.across }
        : { x: a.across0, y: along0, width: a.across, height: a.along };
    },
    fromReal: (b) => {
      const along = horizontal ? b.width : b.height;
      const start = horizontal ? b.x : b.y;
      return {
        along0: flip ? -(start + along) : start,
        across0: horizontal ? b.y : b.x,
        along,
        across: horizontal ? b.height : b.width,
      };
    },
    point: (p) => {
      const along = flip ? -p.along : p.along;
      return horizontal ? { x: along, y: p.across } : { x: p.across, y: along };
    },
  };
}
