import { addressBucket } from "../lib/address-bucket.js";
import { ApiError } from "../problems/api-error.js";
import type { Sharer, Shares } from "./shares.js";

/**
 * Refused requests cost the gateway too (a token or signature checked, a store read), so each
 * one counts in its caller's `refusals` share, and a caller over it is turned away with 429
 * before anything costly is checked. Both API surfaces' authenticators go through this.
 */

/** A party of the `refusals` share: `partner:<client_id>`, `address:<bucket>` … */
export const refusalSharer = (party: string): Sharer => ({ tenant: "", party });

/** The share's party of a source address (IPv6 by its /64, as the sign-in throttle counts). */
export const addressSharer = (ip: string): Sharer => refusalSharer(`address:${addressBucket(ip)}`);

/**
 * Whether a refusal counts: the caller's fault (4xx), not an expired token (every client meets
 * one per token and renews it: 20 workers sharing a token, or a console's parallel reads, would
 * otherwise spend their address's budget) and not this share's own 429.
 */
const countsAsRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  error.status < 500 &&
  error.code !== "token_expired" &&
  error.code !== "rate_limited";

export class RefusalShare {
  /** `shares` absent: nothing is counted or turned away. */
  constructor(private readonly shares?: Shares) {}

  /** Throws the share's 429 (with Retry-After) when one of `sharers` is over it now; no I/O. */
  turnAway(...sharers: (Sharer | undefined)[]): void {
    if (this.shares === undefined) return;
    for (const who of sharers) {
      const refused = who && this.shares.refusedError("refusals", who);
      if (refused) throw refused;
    }
  }

  /**
   * Counts `error` against `who` when it is a refusal that counts; returns what to answer: the
   * refusal itself, or the share's 429 once the caller's budget is spent.
   */
  async counted(
    error: unknown,
    who: Sharer | undefined,
    /** Which of the refusals that count this caller counts (all by default). */
    only: (error: ApiError) => boolean = () => true,
  ): Promise<unknown> {
    if (who === undefined || this.shares === undefined || !countsAsRefusal(error)) return error;
    if (!only(error)) return error;
    try {
      await this.shares.take("refusals", who);
      return error;
    } catch (overBudget) {
      return overBudget;
    }
  }
}
