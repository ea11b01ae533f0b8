import type { Orderable } from "./order.js";

const ROUNDS = 10;

/**
 * Positions across the layers: each node is pulled towards its neighbours in the layer before
 * (or after, or both), weighted so chains of edge points pull hardest and long edges run
 * straight; the order within a layer and the gaps are kept by a weighted isotonic regression.
 */
export function placeAcross<N extends Orderable>(
  layers: N[][],
  paths: N[][],
  gap: (a: N, b: N) => number,
): void {
  const up = new Map<N, [N, number][]>();
  const down = new Map<N, [N, number][]>();
  for (const p of paths) {
    for (let i = 1; i < p.length; i++) {
      const a = p[i - 1] as N;
      const b = p[i] as N;
      const w = a.real < 0 && b.real < 0 ? 8 : a.real < 0 || b.real < 0 ? 2 : 1;
      // Grown in place: copying a node's list for each neighbour costs more than the rest.
      const ups = up.get(b);
      if (ups) ups.push([a, w]);
      else up.set(b, [[a, w]]);
      const downs = down.get(a);
      if (downs) downs.push([b, w]);
      else down.set(a, [[b, w]]);
    }
  }
  const centre = new Map<N, number>();
  const offsets = layers.map((l) => {
    const o: number[] = [];
    let at = 0;
    l.forEach((n, i) => {
      if (i > 0) {
        const prev = l[i - 1] as N;
        at += prev.across / 2 + gap(prev, n) + n.across / 2;
      }
      o.push(at);
    });
    return o;
  });
  layers.forEach((l, r) => {
    l.forEach((n, i) => {
      centre.set(n, (offsets[r] as number[])[i] as number);
    });
  });
  const settle = (r: number, sides: Map<N, [N, number][]>[]) => {
    const l = layers[r] as N[];
    const o = offsets[r] as number[];
    const target: number[] = [];
    const weight: number[] = [];
    l.forEach((n, i) => {
      let sum = 0;
      let w = 0;
      for (const side of sides) {
        for (const [m, mw] of side.get(n) ?? []) {
          sum += (centre.get(m) as number) * mw;
          w += mw;
        }
      }
      target.push((w > 0 ? sum / w : (centre.get(n) as number)) - (o[i] as number));
      weight.push(w > 0 ? w : 0.01);
    });
    const z = isotonic(target, weight);
    l.forEach((n, i) => {
      centre.set(n, (z[i] as number) + (o[i] as number));
    });
  };
  for (let k = 0; k < ROUNDS; k++) {
    const sides = k >= ROUNDS - 2 ? [up, down] : k % 2 === 0 ? [up] : [down];
    if (k % 2 === 0) for (let r = 0; r < layers.length; r++) settle(r, sides);
    else for (let r = layers.length - 1; r >= 0; r--) settle(r, sides);
  }
  // Then snap each node onto a neighbour's line where its layer leaves room: no small jogs.
  for (let pass = 0; pass < 2; pass++) {
    for (const l of layers) {
      l.forEach((n, i) => {
        const nbs = [...(up.get(n) ?? []), ...(down.get(n) ?? [])].sort((a, b) => b[1] - a[1]);
        for (const [m] of nbs) {
          const want = centre.get(m) as number;
          const prev = l[i - 1];
          const next = l[i + 1];
          const lo = prev
            ? (centre.get(prev) as number) + prev.across / 2 + gap(prev, n) + n.across / 2
            : -Infinity;
          const hi = next
            ? (centre.get(next) as number) - next.across / 2 - gap(n, next) - n.across / 2
            : Infinity;
          if (want >= lo && want <= hi) {
            centre.set(n, want);
            break;
          }
        }
      });
    }
  }
  let min = Number.POSITIVE_INFINITY;
  for (const l of layers)
    for (const n of l) min = Math.min(min, (centre.get(n) as number) - n.across / 2);
  for (const l of layers) for (const n of l) n.pos = (centre.get(n) as number) - n.across / 2 - min;
}

/** The nondecreasing sequence nearest to `t` in weighted least squares (pool adjacent violators). */
function isotonic(t: number[], w: number[]): number[] {
  const n = t.length;
  const value = new Float64Array(n);
  const weight = new Float64Array(n);
  const size = new Int32Array(n);
  let top = -1;
  for (let i = 0; i < n; i++) {
    top++;
    value[top] = t[i] as number;
    weight[top] = w[i] as number;
    size[top] = 1;
    while (top > 0 && (value[top - 1] as number) > (value[top] as number)) {
      const sum = (weight[top - 1] as number) + (weight[top] as number);
      value[top - 1] =
        ((value[top - 1] as number) * (weight[top - 1] as number) +
          (value[top] as number) * (weight[top] as number)) /
        sum;
      weight[top - 1] = sum;
      size[top - 1] = (size[top - 1] as number) + (size[top] as number);
      top--;
    }
  }
  const out: number[] = [];
  for (let b = 0; b <= top; b++)
    for (let k = 0; k < (size[b] as number); k++) out.push(value[b] as number);
  return out;
}
