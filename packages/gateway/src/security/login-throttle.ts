import { createHmac } from "node:crypto";
import { type LoginThrottleConfig, RESET_AFTER_MS } from "../config/config.js";
import { BoundedCache } from "../lib/bounded-cache.js";
import type { Clock } from "../lib/clock.js";
import { ApiError } from "../problems/api-error.js";
import type { LoginFailures, TenantStore } from "../store/tenant-store.js";

/**
 * Slows down credential guessing without letting anybody lock an account out by knowing its
 * name (a partner's client_id travels in every request; an email is easy to learn). Failures
 * count where they come from:
 *
 * - per account and source address: the account's own throttle, felt only by that address;
 * - per source address, whatever the account: one address guessing across many accounts;
 * - per account, all addresses together: a ceiling against a guesser with many addresses, which
 *   applies only to attempts from an address that itself has failures in the last hour (and
 *   has not signed in to the account since), so it slows the guessers and never the account's
 *   own systems on addresses that did not fail.
 *
 * A partner login that proves possession of the partner's registered key (a valid X-SIGNATURE,
 * auth/login-proof.ts) is judged by its own count only (failures that also proved the key), so
 * no amount of unproven guessing throttles it.
 *
 * In each count the first `free` failures cost nothing; after that each failure locks it for 2,
 * 4, 8 … seconds, at most MAX_DELAY_SECONDS, from the last failure. A locked attempt gets 429
 * with Retry-After, without a credential check. A success clears the account-and-address count
 * and marks the address as one the account signed in from: until the address fails again, the
 * ceiling does not apply to it and the hashing queue serves it first;
 * failures older than RESET_AFTER_MS are forgotten. The state is in the store, so it holds
 * across gateway instances and restarts, keyed by HMACs, so it names no account or address.
 */
const FREE_FAILURES = 5;
const MAX_DELAY_SECONDS = 15 * 60;

/** How long an address that signed in counts as one that recently did. */
const RECENT_SUCCESS_MS = 24 * 60 * 60 * 1000;

/** The lock after `failures` failures in a bucket whose first `free` failures cost nothing. */
export function lockSecondsFor(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(2 ** Math.min(failures - free + 1, 20), MAX_DELAY_SECONDS);
}

/** The lock of the account-and-address bucket at its default. */
export const lockSecondsAfter = (failures: number): number =>
  lockSecondsFor(failures, FREE_FAILURES);

/** Which login a throttle guards; its buckets never mix with another scope's. */
export type LoginScope = "partner" | "user" | "second_factor";

/** Each scope's keys; the second factor counts per user id (account) apart from passwords. */
const PREFIX: Record<LoginScope, string> = {
  user: "user-login",
  partner: "partner-login",
  second_factor: "second-factor",
};

type Bucket = "accountAndAddress" | "address" | "account" | "proven";

interface ThrottleKeys {
  accountAndAddress: string;
  address: string;
  account: string;
  /** Failures of attempts that proved the partner's key (wrong secret, right signature). */
  proven: string;
  /** When the account last signed in from this address (a row with no failures). */
  accountAndAddressSuccess: string;
}

/** What the throttle knows of an attempt's source, for the hashing queue's priorities. */
interface SourceStanding {
  /** The address has failures in the last hour (for this account or any). */
  failed: boolean;
  /**
   * The account signed in successfully from this address in the last RECENT_SUCCESS_MS, and
   * the address has failed (for any account) not since.
   */
  succeededRecently: boolean;
}

const WHAT: Record<Bucket, string> = {
  accountAndAddress: "for this account from your address",
  address: "from your address",
  account: "for this account from addresses with failed sign-ins",
  proven: "for this account with its signing key",
};

/** A lock this instance knows of, so a locked guesser costs no store round trip. */
interface KnownLock {
  bucket: Bucket;
  unlockAt: number;
}

export class LoginThrottle {
  readonly #free: Record<Bucket, number>;
  /**
   * Locks of the account-and-address and address counts this instance set, until they end.
   * Only a shortcut: the store stays the truth (another instance's locks are read from it),
   * and a lock is only ever remembered as long as the store's would last.
   */
  readonly #known = new BoundedCache<string, KnownLock>(100_000);
  /**
   * Addresses whose last attempt on this instance failed (not proven), until they succeed here or
   * their failures would be forgotten: when hashing is saturated, such an address is refused
   * before any store round trip (failedHere), so a flood costs the store nothing.
   */
  readonly #failedHere = new BoundedCache<string, true>(100_000);
  /** The counts an attempt read before its check, for remembering the lock its failure sets. */
  readonly #read = new WeakMap<ThrottleKeys, Partial<Record<Bucket, LoginFailures>>>();

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
      proven: config.perAccountAndAddress,
    };
  }

  #key(label: string): string {
    return createHmac("sha256", this.pepper).update(label).digest("base64url");
  }

  /** `account` is the client_id or the normalised email; `address` an addressBucket(). */
  keysOf(scope: LoginScope, account: string, address: string): ThrottleKeys {
    // The user scope keeps its account key from before per-address counting, so it still means
    // "all failures for this email".
    const prefix = PREFIX[scope];
    return {
      accountAndAddress: this.#key(`${prefix}-pair:${account}\n${address}`),
      address: this.#key(`${prefix}-address:${address}`),
      account: this.#key(`${prefix}:${account}`),
      proven: this.#key(`${prefix}-proven:${account}`),
      accountAndAddressSuccess: this.#key(`${prefix}-success:${account}\n${address}`),
    };
  }

  #recent(state: LoginFailures | undefined, now: number): boolean {
    return state !== undefined && state.failures > 0 && state.lastFailedAt > now - RESET_AFTER_MS;
  }

  /**
   * Throws 429 while a count that applies to the attempt is locked (naming the longest lock);
   * otherwise says how the source stands. `proven`: the attempt proved the partner's key.
   */
  async assertOpen(keys: ThrottleKeys, proven = false): Promise<SourceStanding> {
    const now = this.now();
    if (!proven) {
      // A guesser this instance locked is refused before any store round trip.
      for (const key of [keys.accountAndAddress, keys.address]) {
        const lock = this.#known.get(key, now);
        if (lock && lock.unlockAt > now) this.#refuse(lock.bucket, lock.unlockAt - now);
      }
    }
    // One round trip for every count: under a flood the store's pool is what the owner's
    // attempt queues for.
    const counts = await this.store.loginFailuresOf([
      keys.accountAndAddress,
      keys.address,
      keys.account,
      keys.proven,
      keys.accountAndAddressSuccess,
    ]);
    const pair = counts.get(keys.accountAndAddress);
    const address = counts.get(keys.address);
    const account = counts.get(keys.account);
    const provenState = counts.get(keys.proven);
    const success = counts.get(keys.accountAndAddressSuccess);
    this.#read.set(keys, { accountAndAddress: pair, address });
    const failed = this.#recent(pair, now) || this.#recent(address, now);
    // A success counts only while no failure from the address came after it: an address
    // that signed in to the account and then guesses is a guessing address.
    const succeededAt = success?.lastFailedAt ?? Number.NEGATIVE_INFINITY;
    const succeededRecently =
      succeededAt > now - RECENT_SUCCESS_MS &&
      succeededAt >= Math.max(pair?.lastFailedAt ?? 0, address?.lastFailedAt ?? 0);
    const applying: [Bucket, LoginFailures | undefined][] = proven
      ? [["proven", provenState]]
      : [
          ["accountAndAddress", pair],
          ["address", address],
          // The ceiling slows only addresses that are guessing themselves.
          ...(failed && !succeededRecently
            ? [["account", account] as [Bucket, LoginFailures | undefined]]
            : []),
        ];
    let longest: { bucket: Bucket; waitMs: number } | undefined;
    for (const [bucket, state] of applying) {
      if (!state) continue;
      const unlockAt =
        state.lastFailedAt + lockSecondsFor(state.failures, this.#free[bucket]) * 1000;
      const waitMs = unlockAt - now;
      if (waitMs > 0 && (longest === undefined || waitMs > longest.waitMs))
        longest = { bucket, waitMs };
    }
    if (longest !== undefined) this.#refuse(longest.bucket, longest.waitMs);
    return { failed, succeededRecently };
  }

  /**
   * The address's last attempt on this instance failed without proof, and it has not signed in
   * here since: its next check would have the flood's priority (2). Another instance's later
   * success is not seen here; such an address is at worst asked to retry while hashing is full.
   */
  failedHere(keys: ThrottleKeys): boolean {
    return this.#failedHere.get(keys.address, this.now()) === true;
  }

  #refuse(bucket: Bucket, waitMs: number): never {
    const seconds = Math.ceil(waitMs / 1000);
    throw new ApiError(
      "login_throttled",
      `Too many failed sign-ins ${WHAT[bucket]}; try again in ${seconds} s.`,
      { retry_after: seconds },
      { retryAfterSeconds: seconds },
    );
  }

  /** Remembers the lock a failure sets on a count read before it (at least that lock). */
  #remember(key: string, bucket: Bucket, before: LoginFailures | undefined, at: number): void {
    const failures = (this.#recent(before, at) ? (before as LoginFailures).failures : 0) + 1;
    const unlockAt = at + lockSecondsFor(failures, this.#free[bucket]) * 1000;
    if (unlockAt > at) this.#known.set(key, { bucket, unlockAt }, unlockAt);
  }

  async failed(keys: ThrottleKeys, proven = false): Promise<void> {
    const at = this.now();
    const counted = proven ? [keys.proven] : [keys.accountAndAddress, keys.address, keys.account];
    await this.store.recordLoginFailures(counted, at, at - RESET_AFTER_MS);
    if (!proven) this.#failedHere.set(keys.address, true, at + RESET_AFTER_MS);
    const read = this.#read.get(keys);
    if (!proven && read) {
      this.#remember(keys.accountAndAddress, "accountAndAddress", read.accountAndAddress, at);
      this.#remember(keys.address, "address", read.address, at);
    }
  }

  /**
   * Only the account's count from this address (and, proven, the account's proven count) is
   * cleared: a success must not wipe what an attacker elsewhere has run up, nor let one account
   * reset an address's count.
   */
  async succeeded(keys: ThrottleKeys, proven = false): Promise<void> {
    this.#known.delete(keys.accountAndAddress);
    this.#failedHere.delete(keys.address);
    await Promise.all([
      this.store.clearLoginFailures(keys.accountAndAddress),
      ...(proven ? [this.store.clearLoginFailures(keys.proven)] : []),
      this.store.recordLoginSuccess(keys.accountAndAddressSuccess, this.now()),
    ]);
  }
}
