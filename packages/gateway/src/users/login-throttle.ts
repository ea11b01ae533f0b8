import { createHmac } from "node:crypto";
import { ApiError } from "../http/errors.js";
import type { Clock } from "../lib/clock.js";
import type { TenantStore } from "../store/tenant-store.js";

/**
 * Slows down password guessing against one account. The first FREE_FAILURES failures cost
 * nothing; after that each failure locks the address for 2, 4, 8 … seconds, at most
 * MAX_DELAY_SECONDS, counted from the last failure. While locked, every attempt (even with the
 * right password) gets 429 with Retry-After, without a password check. A success clears the
 * count; failures older than RESET_AFTER_MS are forgotten. The state is in the store, so it holds
 * across gateway instances and restarts. It is keyed by an HMAC of the address, known or not, so
 * the throttle reveals nothing about which addresses have accounts.
 */
export const FREE_FAILURES = 5;
export const MAX_DELAY_SECONDS = 15 * 60;
export const RESET_AFTER_MS = 60 * 60 * 1000;

export function lockSecondsAfter(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - FREE_FAILURES + 1), MAX_DELAY_SECONDS);
}

export class LoginThrottle {
  constructor(
    private readonly store: TenantStore,
    private readonly pepper: Buffer,
    private readonly now: Clock,
  ) {}

  keyOf(email: string): string {
    return createHmac("sha256", this.pepper).update(`user-login:${email}`).digest("base64url");
  }

  /** Throws 429 while the address is locked. */
  async assertOpen(key: string): Promise<void> {
    const state = await this.store.loginFailures(key);
    if (!state) return;
    const unlockAt = state.lastFailedAt + lockSecondsAfter(state.failures) * 1000;
    const waitMs = unlockAt - this.now();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new ApiError(
        "login_throttled",
        `Too many failed sign-ins for this account; try again in ${seconds} s.`,
        { retry_after: seconds },
        { "retry-after": String(seconds) },
      );
    }
  }

  async failed(key: string): Promise<void> {
    const at = this.now();
    await this.store.recordLoginFailure(key, at, at - RESET_AFTER_MS);
  }

  async succeeded(key: string): Promise<void> {
    await this.store.clearLoginFailures(key);
  }
}
