import { Redis } from "ioredis";
import type { Consumed, RateCounter } from "./rate-counter.js";
import { MemoryRateCounter } from "./rate-counter.js";

// Apart from rate-limit.ts so that what counts without Redis (the admin CLI's shares) never
// loads ioredis.

/**
 * INCRBY the requests counted together and, on a window's first hit, PEXPIRE, in one atomic
 * script: every instance counts in the same window, and a key never outlives its window.
 */
const CONSUME = `
local n = tonumber(ARGV[2])
local count = redis.call('INCRBY', KEYS[1], n)
if count == n then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

interface Waiting {
  key: string;
  windowMs: number;
  waiters: { resolve: (consumed: Consumed) => void; reject: (error: unknown) => void }[];
}

export class RedisRateCounter implements RateCounter {
  readonly kind = "redis";
  readonly #redis: Redis;
  /** Requests of one key that arrived in this event-loop turn: counted with one round trip. */
  readonly #waiting = new Map<string, Waiting>();

  constructor(url: string) {
    this.#redis = new Redis(url, {
      // A Redis outage must not stall requests: fail fast, and the limiter lets them through.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
      lazyConnect: false,
    });
    this.#redis.on("error", () => {});
    this.#redis.defineCommand("olConsume", { numberOfKeys: 1, lua: CONSUME });
    // Requests that arrive while the first connection is still being made wait for it (at most
    // the connect timeout) rather than pass uncounted; later outages still fail fast.
    this.#connected = new Promise((resolve) => {
      const timer = setTimeout(resolve, 2000);
      timer.unref();
      this.#redis.once("ready", () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  readonly #connected: Promise<void>;

  /** Whether Redis answers now (the metrics' fallback state). */
  get ready(): boolean {
    return this.#redis.status === "ready";
  }

  /**
   * Counts this request with the others of its key in this event-loop turn (one INCRBY for
   * all): under load a round trip per request was a Redis command per order on every instance.
   * Each still learns its own exact count: the n-th of the group is the total less those after it.
   */
  async consume(key: string, windowMs: number): Promise<Consumed> {
    await this.#connected;
    return new Promise((resolve, reject) => {
      const id = `${windowMs}:${key}`;
      let waiting = this.#waiting.get(id);
      if (waiting === undefined) {
        waiting = { key, windowMs, waiters: [] };
        this.#waiting.set(id, waiting);
        if (this.#waiting.size === 1) setImmediate(() => this.#flush());
      }
      waiting.waiters.push({ resolve, reject });
    });
  }

  #flush(): void {
    const groups = [...this.#waiting.values()];
    this.#waiting.clear();
    const redis = this.#redis as unknown as {
      olConsume(key: string, windowMs: number, n: number): Promise<[number, number]>;
    };
    for (const { key, windowMs, waiters } of groups) {
      redis.olConsume(`orderline:ratelimit:${key}`, windowMs, waiters.length).then(
        ([count, ttl]) => {
          const first = count - waiters.length;
          for (const [i, w] of waiters.entries()) w.resolve({ count: first + i + 1, resetMs: ttl });
        },
        (error: unknown) => {
          for (const w of waiters) w.reject(error);
        },
      );
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}

export function createRateCounter(redisUrl: string | undefined): RateCounter {
  return redisUrl ? new RedisRateCounter(redisUrl) : new MemoryRateCounter();
}
