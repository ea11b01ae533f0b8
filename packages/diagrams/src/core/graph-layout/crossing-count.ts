/**
 * Crossings between every two neighbouring layers. `layers` holds, per pair of neighbouring
 * layers, its segments; `from` and `to` give a segment's place in the upper and the lower layer
 * (fractions allowed: a segment may end off a node's middle). Ordering and clustered placing
 * both count with this one function, over their own segment shapes.
 */
export function layerCrossings<S>(
  layers: Iterable<readonly S[]>,
  from: (segment: S) => number,
  to: (segment: S) => number,
): number {
  let total = 0;
  for (const list of layers) {
    const xs = new Float64Array(list.length);
    const ys = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      xs[i] = from(list[i] as S);
      ys[i] = to(list[i] as S);
    }
    total += crossingsAmong(xs, ys);
  }
  return total;
}

/**
 * Crossings among the segments between two neighbouring layers, segment i running from place
 * `from[i]` in the one layer to place `to[i]` in the other: two cross when their ends swap order.
 */
function crossingsAmong(from: ArrayLike<number>, to: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < from.length; i++) {
    for (let j = i + 1; j < from.length; j++) {
      if (((from[i] as number) - (from[j] as number)) * ((to[i] as number) - (to[j] as number)) < 0)
        total++;
    }
  }
  return total;
}
