import type { Point } from "../model.js";
import type { Channels, Room } from "./route.js";

/**
 * Track offsets from a gutter's middle line, in the order they are taken: the middle, then
 * outwards 6 apart, skipping the outlines drawn in a gutter (phases 3 units either side of
 * the line, groups 8), so no edge runs along a dashed border.
 */
const X_STEP = 6;
const X_FIRST = 12;
/** In a lane gap: the middle, then 6 apart, as in a gutter (the lane outlines bound the room). */
const Y_STEP = 6;

function slots(room: Room, first: number, step: number): number[] {
  const out = [0];
  for (let d = first; d <= Math.max(-room.lo, room.hi); d += step) {
    if (-d >= room.lo) out.push(-d);
    if (d <= room.hi) out.push(d);
  }
  return out;
}

/**
 * The offsets of `count` tracks, lowest first; when fewer slots fit, or when `spread`, evenly
 * spread in the room.
 */
function trackOffsets(count: number, free: number[], room: Room, spread = false): number[] {
  if (spread) {
    const spacing = (room.hi - room.lo) / (count + 1);
    return Array.from({ length: count }, (_, t) => room.lo + (t + 1) * spacing);
  }
  if (count <= free.length) return free.slice(0, count).sort((p, q) => p - q);
  if (count === 1) return [(room.lo + room.hi) / 2];
  const spacing = (room.hi - room.lo) / (count - 1);
  return Array.from({ length: count }, (_, t) => room.lo + t * spacing);
}

/**
 * The channel whose room, widened by `reach` either side, holds `at` (the nearest line first),
 * or -1.
 */
function channelOf(at: number, lines: number[], rooms: Room[], reach = 0.01): number {
  let best = -1;
  let distance = Number.POSITIVE_INFINITY;
  lines.forEach((l, i) => {
    const room = rooms[i] as Room;
    const d = Math.abs(at - l);
    if (at - l >= room.lo - reach && at - l <= room.hi + reach && d < distance) {
      best = i;
      distance = d;
    }
  });
  return best;
}

/**
 * How far outside a gap's room a run still counts as lying along the lane outline there: the
 * outline is 3 units beyond the room, and a run up to 3 units past it reads as on it too.
 */
const OUTLINE_REACH = 6;

/** An inner run of an edge in a channel. */
interface Run {
  path: number;
  /** Index of the run's first point in its path. */
  seg: number;
  lo: number;
  hi: number;
  /** True when the run lies along an outline, so it moves to a track even when alone. */
  misplaced: boolean;
}

/** What separating the tracks found: the paths, and how many tracks each channel lacked room for. */
export interface Tracks {
  paths: Point[][];
  /** Per gutter of `channels.xs`: the tracks beyond those its room holds (0: it fits). */
  xShort: number[];
  /** Per gap of `channels.ys`: the same. */
  yShort: number[];
}

/** How much wider a gutter (`axis` x) or taller a gap must be to hold `short` more tracks. */
export function roomFor(axis: "x" | "y", short: number): number {
  return short <= 0 ? 0 : 2 * (axis === "x" ? X_STEP : Y_STEP) * Math.ceil(short / 2);
}

/**
 * Spreads edges that share a channel onto parallel tracks, as orthogonal routers do: runs that
 * overlap along a gutter or lane gap take separate tracks, a visible distance apart and clear
 * of the outlines there; runs that do not overlap share one. Only inner segments move (ports
 * stay put). Reports, per channel, how many tracks did not fit its room, so the caller can
 * widen it and lay out again.
 */
export function separateTracks(paths: Point[][], channels: Channels): Tracks {
  const out = paths.map((p) => p.map((q) => ({ ...q })));
  const nudge = (
    axis: "x" | "y",
    lines: number[],
    rooms: Room[],
    spread?: boolean[],
    busyMiddle?: boolean[],
  ): number[] => {
    const other = axis === "x" ? "y" : "x";
    const short = lines.map(() => 0);
    const groups = new Map<number, Run[]>();
    out.forEach((path, pi) => {
      for (let i = 1; i < path.length - 2; i++) {
        const a = path[i] as Point;
        const b = path[i + 1] as Point;
        if (Math.abs(a[axis] - b[axis]) > 0.01) continue;
        const at = a[axis];
        // A run off the middle line (set by a bias or a channel) but in the channel's room
        // shares its tracks, so it never lies on another run there. One just outside a lane
        // gap's room lies along a lane outline: it is taken into the gap.
        let line = channelOf(at, lines, rooms);
        const outside = line < 0 && axis === "y";
        if (outside) line = channelOf(at, lines, rooms, OUTLINE_REACH);
        if (line < 0) continue;
        const offset = at - (lines[line] as number);
        const list = groups.get(line) ?? [];
        list.push({
          path: pi,
          seg: i,
          lo: Math.min(a[other], b[other]),
          hi: Math.max(a[other], b[other]),
          // A lone run keeps its place, unless it lies along an outline.
          misplaced: outside || (busyMiddle?.[line] === true && Math.abs(offset) < X_FIRST / 2),
        });
        groups.set(line, list);
      }
    });
    for (const [line, list] of groups) {
      list.sort((p, q) => p.lo - q.lo || p.hi - q.hi || p.path - q.path);
      const trackEnds: number[] = [];
      const assigned = list.map((s) => {
        let t = trackEnds.findIndex((end) => end < s.lo - 2);
        if (t < 0) {
          t = trackEnds.length;
          trackEnds.push(s.hi);
        } else trackEnds[t] = s.hi;
        return t;
      });
      const count = trackEnds.length;
      const room = rooms[line] ?? { lo: 0, hi: 0 };
      const all = axis === "x" ? slots(room, X_FIRST, X_STEP) : slots(room, Y_STEP, Y_STEP);
      const free = busyMiddle?.[line] === true ? all.filter((o) => o !== 0) : all;
      short[line] = Math.max(0, count - free.length);
      if (count < 2 && !list.some((s) => s.misplaced)) continue;
      const offsets = trackOffsets(count, free, room, spread?.[line] === true);
      const at = lines[line] as number;
      list.forEach((s, k) => {
        const offset = offsets[assigned[k] as number] as number;
        const path = out[s.path] as Point[];
        (path[s.seg] as Point)[axis] = at + offset;
        (path[s.seg + 1] as Point)[axis] = at + offset;
      });
    }
    return short;
  };
  const yShort = nudge("y", channels.ys, channels.yRoom, channels.spreadYs);
  const xShort = nudge("x", channels.xs, channels.xRoom, undefined, channels.busyMiddleXs);
  return { paths: out, xShort, yShort };
}

/** Closer than this, two lines read as one (the routing checker's threshold). */
const APART = 4;

interface EndRun {
  path: number;
  /** Index of the port's point: 0 or the last. */
  port: number;
  /** Index of the bend the run goes to. */
  bend: number;
  axis: "x" | "y";
  at: number;
  lo: number;
  hi: number;
}

function endRuns(paths: Point[][]): EndRun[] {
  const out: EndRun[] = [];
  paths.forEach((path, pi) => {
    if (path.length < 3) return;
    for (const [port, bend] of [
      [0, 1],
      [path.length - 1, path.length - 2],
    ] as const) {
      const a = path[port] as Point;
      const b = path[bend] as Point;
      const axis = Math.abs(a.y - b.y) < 0.01 ? "y" : "x";
      const other = axis === "y" ? "x" : "y";
      out.push({
        path: pi,
        port,
        bend,
        axis,
        at: a[axis],
        lo: Math.min(a[other], b[other]),
        hi: Math.max(a[other], b[other]),
      });
    }
  });
  return out;
}

const clash = (r: EndRun, s: EndRun) =>
  r.path !== s.path &&
  r.axis === s.axis &&
  Math.abs(r.at - s.at) < APART &&
  Math.min(r.hi, s.hi) - Math.max(r.lo, s.lo) > 0;

/**
 * Moves a port along its node's side when the run leaving it lies on another edge's run from
 * or to a port (two nodes facing each other across a gutter with ports at the same height),
 * which track separation, moving only inner runs, leaves alone. `spans[k][end]` is the part
 * of the side the port may move in (the node's side less its corners).
 */
export function separateEnds(paths: Point[][], spans: [Room, Room][]): Point[][] {
  const out = paths.map((p) => p.map((q) => ({ ...q })));
  const runs = endRuns(out);
  // Runs by axis and position in cells APART wide: a clash is within the neighbouring cells.
  const cells = new Map<string, number[]>();
  const cellOf = (r: EndRun, shift = 0) => `${r.axis}${Math.floor(r.at / APART) + shift}`;
  runs.forEach((r, i) => {
    const list = cells.get(cellOf(r)) ?? [];
    list.push(i);
    cells.set(cellOf(r), list);
  });
  const clashes = (r: EndRun, i: number, before: boolean) =>
    [-1, 0, 1].some((shift) =>
      (cells.get(cellOf(r, shift)) ?? []).some(
        (j) => (before ? j < i : j !== i) && clash(r, runs[j] as EndRun),
      ),
    );
  runs.forEach((r, i) => {
    if (!clashes(r, i, true)) return;
    const span = (spans[r.path] as [Room, Room])[r.port === 0 ? 0 : 1];
    for (const d of [6, -6, 10, -10, 14, -14]) {
      const at = r.at + d;
      if (at < span.lo || at > span.hi) continue;
      const moved = { ...r, at };
      if (clashes(moved, i, false)) continue;
      const path = out[r.path] as Point[];
      (path[r.port] as Point)[r.axis] = at;
      (path[r.bend] as Point)[r.axis] = at;
      const from = cells.get(cellOf(r)) as number[];
      from.splice(from.indexOf(i), 1);
      r.at = at;
      const to = cells.get(cellOf(r)) ?? [];
      to.push(i);
      cells.set(cellOf(r), to);
      return;
    }
  });
  return out;
}
