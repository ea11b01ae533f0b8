import type { UserContext } from "../domain/users/user-context.js";
import { ApiError } from "../http/errors.js";
import { bearerTokenOf, type HeaderBag } from "../http/headers.js";
import { sessionRevoked } from "../security/session-revocation.js";
import type { TenantStore } from "../store/tenant-store.js";
import { assertTokenUserUsable } from "./sessions.js";
import type { UserTokens } from "./user-tokens.js";

export type { UserContext };

/**
 * Bearer authentication for `/v1/…`: a user token (a partner token is refused: other audience),
 * its user still there and in the token's tenant. The tenant comes from the token only.
 */
export class UserAuthenticator {
  constructor(
    private readonly tokens: UserTokens,
    private readonly store: TenantStore,
  ) {}

  async authenticate(headers: HeaderBag): Promise<UserContext> {
    const claims = await this.tokens.verifyAccess(
      bearerTokenOf(headers, "the token from POST /v1/auth/login"),
    );
    const [found, revoked] = await Promise.all([
      this.store.findUser(claims.sub),
      this.store.isSessionRevoked(claims.sid),
    ]);
    const user = assertTokenUserUsable(found, claims);
    if (revoked) throw sessionRevoked("sign in again with POST /v1/auth/login");
    const tenant = await this.store.findTenant(user.tenantId);
    if (!tenant) throw new ApiError("token_invalid", "The token's tenant no longer exists.");
    return { user, tenant };
  }
}
