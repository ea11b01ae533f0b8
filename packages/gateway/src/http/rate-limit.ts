import { ApiError } from "../problems/api-error.js";
import { consumeOrAllow, type RateCounter, type WarnLog } from "../security/rate-counter.js";

/** Requests allowed per key in each fixed window. `max` 0 turns a limit off. */
interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * Enforces `limit` for `key` (e.g. `orders:<client_id>`), answering 429 `rate_limited` with
 * Retry-After when it is exceeded (let through when the counter cannot be reached).
 */
async function enforceRateLimit(
  counter: RateCounter,
  limit: RateLimit,
  key: string,
  log: WarnLog,
  /** Whom the limit counts, as the 429 says it. */
  per = "for this client",
): Promise<void> {
  if (limit.max <= 0) return;
  const consumed = await consumeOrAllow(counter, key, limit.windowMs, log);
  if (consumed === undefined || consumed.count <= limit.max) return;
  const retryAfter = Math.max(1, Math.ceil(consumed.resetMs / 1000));
  throw new ApiError(
    "rate_limited",
    `More than ${limit.max} requests in ${limit.windowMs / 1000} s ${per}; retry in ${retryAfter} s.`,
    { retry_after: retryAfter },
    { retryAfterSeconds: retryAfter },
  );
}

interface ClientRateLimits {
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
