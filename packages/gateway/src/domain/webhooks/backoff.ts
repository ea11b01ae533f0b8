/**
 * The wait before the next attempt after `attempt` failed: base × 2^(attempt−1), capped at max,
 * then "equal jitter" (a random point in its upper half), so receivers coming back up are not
 * hit by every queued delivery in the same second, yet each wait stays at least half the curve.
 */
export function backoffMs(
  attempt: number,
  options: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 40);
  const full = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(full / 2 + random() * (full / 2));
}
