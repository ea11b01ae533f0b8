import { ApiError } from "../problems/api-error.js";
import type { PartnerStatus } from "../store/store.js";

interface PartnerState {
  status: PartnerStatus;
  secretVersion: number;
  previousSecretUntil: number | null;
}

/**
 * Whether a token (or a login) under `secretVersion` is still good: the current secret, or the
 * one before it while the rotation's grace period runs.
 */
export function secretVersionUsable(
  partner: PartnerState,
  secretVersion: number,
  now: number,
): boolean {
  if (secretVersion === partner.secretVersion) return true;
  return (
    secretVersion === partner.secretVersion - 1 &&
    partner.previousSecretUntil !== null &&
    now < partner.previousSecretUntil
  );
}

/**
 * The checks a token cannot carry itself: its partner still exists, is active, and has not
 * rotated its secret since the token was issued (beyond the rotation's grace period). Used by
 * every signed request and by refresh.
 */
export function assertTokenPartnerUsable<P extends PartnerState>(
  partner: P | undefined,
  tokenSecretVersion: number,
  now: number,
): P {
  if (!partner) throw new ApiError("token_invalid", "The token's partner no longer exists.");
  if (partner.status !== "active") {
    throw new ApiError(
      "partner_disabled",
      "This partner is disabled; contact the integration team.",
    );
  }
  if (!secretVersionUsable(partner, tokenSecretVersion, now)) {
    throw new ApiError(
      "credentials_rotated",
      "The client secret was rotated after this token was issued; log in with the new secret.",
    );
  }
  return partner;
}
