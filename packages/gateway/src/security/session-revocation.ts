import { ApiError } from "../problems/api-error.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { BaseClaims, TokenConfig } from "./tokens.js";

/**
 * A refresh token presented a second time means two parties hold the chain (the client and a
 * thief, in either order), and the gateway cannot tell which is which: every token of that login
 * session (`sid`) is revoked. The revocation is a row in the store, which every instance reads:
 * user requests check it on each call, partner requests through the partner directory (cached
 * for GATEWAY_PARTNER_CACHE_MS, 1 s by default).
 */
export async function revokeSession(
  store: TenantStore,
  subject: string,
  claims: Pick<BaseClaims, "sid" | "auth_time">,
  config: Pick<TokenConfig, "sessionMaxSeconds" | "ttlSeconds">,
  now: number,
): Promise<void> {
  // No token of the session can be valid after its last possible refresh plus a lifetime.
  const expiresAt = (claims.auth_time + config.sessionMaxSeconds + config.ttlSeconds) * 1000;
  await store.revokeSession(claims.sid, subject, now, expiresAt);
}

/** `loginHint` says how to start a new session. */
export const sessionRevoked = (loginHint: string) =>
  new ApiError(
    "session_revoked",
    `This token's session was revoked because one of its tokens was refreshed twice (a sign that it was copied); ${loginHint}.`,
  );

export const reusedRefresh = (loginHint: string) =>
  new ApiError(
    "refresh_token_reused",
    `This token was already refreshed. Presenting it again revoked every token of its session; ${loginHint}.`,
  );
