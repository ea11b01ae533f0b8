/**
 * Track order in a channel between two layers. A bend runs in along its first across value,
 * turns onto its track, runs across to its second value and out; where two bends' tracks lie
 * decides whether the one's cross run meets the other's runs in and out. Tracks are ordered to
 * meet as few as possible (orthogonal routers such as ELK's do the same with a crossing graph).
 */

/** A bend in one channel: the across value it comes in at and the one it leaves at. */
export interface Bend {
  from: number;
  to: number;
}

const within = (x: number, a: number, b: number): boolean =>
  x > Math.min(a, b) + 0.01 && x < Math.max(a, b) - 0.01;

/** Crossings when `a`'s track comes before `b`'s (nearer the layer the bends come from). */
export function pairCost(a: Bend, b: Bend): number {
  // a's way out runs past b's track, b's way in runs past a's track.
  return (within(a.to, b.from, b.to) ? 1 : 0) + (within(b.from, a.from, a.to) ? 1 : 0);
}

/**
 * The bends' indices in track order: each next the one that costs least before all the rest
 * (ties: the order given), then neighbours swapped while that removes crossings.
 */
export function orderTracks(bends: Bend[]): number[] {
  const n = bends.length;
  if (n < 2) return bends.map((_, i) => i);
  const cost = bends.map((a) => bends.map((b) => pairCost(a, b)));
  const c = (i: number, j: number) => (cost[i] as number[])[j] as number;
  const left = bends.map((_, i) => i);
  const out: number[] = [];
  while (left.length > 0) {
    let pick = 0;
    let least = Number.POSITIVE_INFINITY;
    left.forEach((i, k) => {
      const sum = left.reduce((s, j) => (j === i ? s : s + c(i, j) - c(j, i)), 0);
      if (sum < least) {
        least = sum;
        pick = k;
      }
    });
    out.push(left.splice(pick, 1)[0] as number);
  }
  for (let improved = true, round = 0; improved && round < n; round++) {
    improved = false;
    for (let k = 0; k + 1 < n; k++) {
      const i = out[k] as number;
      const j = out[k + 1] as number;
      if (c(j, i) < c(i, j)) {
        out[k] = j;
        out[k + 1] = i;
        improved = true;
      }
    }
  }
  return out;
}
