import { createHmac } from "node:crypto";
import { type LoginThrottleConfig, RESET_AFTER_MS } from "../config.js";
import { ApiError } from "../http/errors.js";
import type { Clock } from "../lib/clock.js";
import type { TenantStore } from "../store/tenant-store.js";

/**
 * Slows down credential guessing without letting anybody lock an account out by knowing its
 * name (a partner's client_id travels in every request; an email is easy to learn). Failures are
 * counted in three buckets:
 *
 * - per account and source address: the account's own throttle, felt only by that address;
 * - per source address, whatever the account: one address guessing across many accounts;
 * - per account, all addresses together: a high ceiling against a guesser with many addresses.
 *
 * In each bucket the first `free` failures cost nothing; after that each failure locks the
 * bucket for 2, 4, 8 … seconds, at most MAX_DELAY_SECONDS, counted from the last failure. While
 * a bucket of an attempt is locked, the attempt (even with the right credentials) gets 429 with
 * Retry-After, without a credential check. A success clears the account-and-address bucket only;
 * failures older than RESET_AFTER_MS are forgotten. The state is in the store, so it holds across
 * gateway instances and restarts, and is keyed by HMACs, so it names no account or address, and
 * reveals nothing about which accounts exist.
 */
export const FREE_FAILURES = 5;
export const MAX_DELAY_SECONDS = 15 * 60;
export { RESET_AFTER_MS };

/** The lock after `failures` failures in a bucket whose first `free` failures cost nothing. */
export function lockSecondsFor(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(2 ** Math.min(failures - free + 1, 20), MAX_DELAY_SECONDS);
}

/** The lock of the account-and-address bucket at its default. */
export const lockSecondsAfter = (failures: number): number =>
  lockSecondsFor(failures, FREE_FAILURES);

/** Which login a throttle guards; its buckets never mix with another scope's. */
export type LoginScope = "partner" | "user";

type Bucket = "accountAndAddress" | "address" | "account";

export interface ThrottleKeys {
  accountAndAddress: string;
  address: string;
  account: string;
}

const WHAT: Record<Bucket, string> = {
  accountAndAddress: "for this account from your address",
  address: "from your address",
  account: "for this account",
};

export class LoginThrottle {
  readonly #free: Record<Bucket, number>;

  constructor(
    private readonly store: TenantStore,
    private readonly pepper: Buffer,
    private readonly now: Clock,
    config: LoginThrottleConfig,
  ) {
    this.#free = {
      accountAndAddress: config.perAccountAndAddress,
      address: config.perAddress,
      account: config.perAccount,
    };
  }

  #key(label: string): string {
    return createHmac("sha256", this.pepper).update(label).digest("base64url");
  }

  /** `account` is the client_id or the normalised email; `address` an addressBucket(). */
  keysOf(scope: LoginScope, account: string, address: string): ThrottleKeys {
    // The user scope keeps its account key from before per-address counting, so it still means
    // "all failures for this email".
    const prefix = scope === "user" ? "user-login" : "partner-login";
    return {
      accountAndAddress: this.#key(`${prefix}-pair:${account}\n${address}`),
      address: this.#key(`${prefix}-address:${address}`),
      account: this.#key(`${prefix}:${account}`),
    };
  }

  /** Throws 429 while any bucket of the attempt is locked; names the longest lock. */
  async assertOpen(keys: ThrottleKeys): Promise<void> {
    const now = this.now();
    const buckets = Object.keys(keys) as Bucket[];
    const states = await Promise.all(buckets.map((b) => this.store.loginFailures(keys[b])));
    let longest: { bucket: Bucket; waitMs: number } | undefined;
    states.forEach((state, i) => {
      const bucket = buckets[i] as Bucket;
      if (!state) return;
      const unlockAt =
        state.lastFailedAt + lockSecondsFor(state.failures, this.#free[bucket]) * 1000;
      const waitMs = unlockAt - now;
      if (waitMs > 0 && (longest === undefined || waitMs > longest.waitMs))
        longest = { bucket, waitMs };
    });
    if (longest !== undefined) {
      const seconds = Math.ceil(longest.waitMs / 1000);
      throw new ApiError(
        "login_throttled",
        `Too many failed sign-ins ${WHAT[longest.bucket]}; try again in ${seconds} s.`,
        { retry_after: seconds },
        { "retry-after": String(seconds) },
      );
    }
  }

  async failed(keys: ThrottleKeys): Promise<void> {
    const at = this.now();
    await Promise.all(
      Object.values(keys).map((key) => this.store.recordLoginFailure(key, at, at - RESET_AFTER_MS)),
    );
  }

  /**
   * Only the account's count from this address is cleared: a success must not wipe what an
   * attacker elsewhere has run up, nor let one account reset an address's count.
   */
  async succeeded(keys: ThrottleKeys): Promise<void> {
    await this.store.clearLoginFailures(keys.accountAndAddress);
  }
}
