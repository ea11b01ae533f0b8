import { Redis } from "ioredis";
import type { Logger } from "pino";
import { countRateLimitFallback } from "../observability/metrics.js";
import { ApiError } from "./errors.js";

/** Requests allowed per key in each fixed window. `max` 0 turns a limit off. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

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

const lastWarned = new WeakMap<RateCounter, number>();

/**
 * Enforces `limit` for `key` (e.g. `orders:<client_id>`), answering 429 `rate_limited` with
 * Retry-After when it is exceeded. When the shared counter cannot be reached, the request is let
 * through and a warning logged: a Redis outage must not take the order API down with it.
 */
export async function enforceRateLimit(
  counter: RateCounter,
  limit: RateLimit,
  key: string,
  log: Logger | { warn: (obj: object, msg: string) => void },
  /** Whom the limit counts, as the 429 says it. */
  per = "for this client",
): Promise<void> {
  if (limit.max <= 0) return;
  let consumed: Consumed;
  try {
    consumed = await counter.consume(key, limit.windowMs);
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
    return;
  }
  if (consumed.count <= limit.max) return;
  const retryAfter = Math.max(1, Math.ceil(consumed.resetMs / 1000));
  throw new ApiError(
    "rate_limited",
    `More than ${limit.max} requests in ${limit.windowMs / 1000} s ${per}; retry in ${retryAfter} s.`,
    { retry_after: retryAfter },
    { "retry-after": String(retryAfter) },
  );
}

export interface ClientRateLimits {
  /** Order requests (create, read, list) per authenticated client_id. */
  orders: RateLimit;
  /** Login attempts (partner and user, right or wrong) per source address. */
  login: RateLimit;
}

/** The request limits of the gateway over one counter (shared through Redis or not). */
export class ClientRateLimiter {
  constructor(
    readonly counter: RateCounter,
    readonly limits: ClientRateLimits,
  ) {}

  /** `subject` is a client_id for orders, an addressBucket() for login. */
  check(
    scope: keyof ClientRateLimits,
    subject: string,
    log: Parameters<typeof enforceRateLimit>[3],
    per?: string,
  ): Promise<void> {
    return enforceRateLimit(this.counter, this.limits[scope], `${scope}:${subject}`, log, per);
  }

  close(): Promise<void> {
    return this.counter.close();
  }
}
