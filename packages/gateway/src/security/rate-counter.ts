import type { Logger } from "pino";
import { countRateLimitFallback } from "../observability/metrics.js";

export interface Consumed {
  count: number;
  /** Milliseconds until the window of this key ends. */
  resetMs: number;
}

/** Counts requests per key in fixed windows: in this process, or shared through Redis. */
export interface RateCounter {
  readonly kind: "memory" | "redis";
  consume(key: string, windowMs: number): Promise<Consumed>;
  close(): Promise<void>;
}

/** Per-process windows: right for one instance; N instances each allow the full limit. */
export class MemoryRateCounter implements RateCounter {
  readonly kind = "memory";
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  #sweptAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async consume(key: string, windowMs: number): Promise<Consumed> {
    const now = this.now();
    if (now - this.#sweptAt > windowMs) this.#sweep(now);
    let window = this.#windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.endsAt - now };
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }

  async close(): Promise<void> {}
}

const lastWarned = new WeakMap<RateCounter, number>();

export type WarnLog = Logger | { warn: (obj: object, msg: string) => void };

/**
 * Counts one use of `key`; undefined when the shared counter cannot be reached, so that the
 * caller lets the request through (a warning logged): a Redis outage must not take the API down
 * with it.
 */
export async function consumeOrAllow(
  counter: RateCounter,
  key: string,
  windowMs: number,
  log: WarnLog,
): Promise<Consumed | undefined> {
  try {
    return await counter.consume(key, windowMs);
  } catch (error) {
    countRateLimitFallback();
    // Once per 10 s per counter: an outage must not turn every request into a log line.
    const now = Date.now();
    if (now - (lastWarned.get(counter) ?? 0) > 10_000) {
      lastWarned.set(counter, now);
      log.warn(
        { err: (error as Error).message },
        "rate limit counter unavailable; requests allowed",
      );
    }
    return undefined;
  }
}
