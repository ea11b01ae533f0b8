import { ApiError } from "../http/errors.js";
import type { PartnerStatus } from "../store/store.js";

interface PartnerState {
  status: PartnerStatus;
  secretVersion: number;
}

/**
 * The checks a token cannot carry itself: its partner still exists, is active, and has not
 * rotated its secret since the token was issued. Used by every signed request and by refresh.
 */
export function assertTokenPartnerUsable<P extends PartnerState>(
  partner: P | undefined,
  tokenSecretVersion: number,
): P {
  if (!partner) throw new ApiError("token_invalid", "The token's partner no longer exists.");
  if (partner.status !== "active") {
    throw new ApiError(
      "partner_disabled",
      "This partner is disabled; contact the integration team.",
    );
  }
  if (partner.secretVersion !== tokenSecretVersion) {
    throw new ApiError(
      "credentials_rotated",
      "The client secret was rotated after this token was issued; log in with the new secret.",
    );
  }
  return partner;
}
