import type { TwoFactorService } from "../domain/users/two-factor.js";
import type { UserContext } from "../domain/users/user-context.js";
import { cookieOf } from "../http/cookies.js";
import { bearerTokenOf, type HeaderBag, single } from "../http/headers.js";
import { ApiError } from "../problems/api-error.js";
import { addressSharer, RefusalShare } from "../security/refusals.js";
import { sessionRevoked } from "../security/session-revocation.js";
import type { Shares } from "../security/shares.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { SESSION_COOKIE } from "./session-cookie.js";
import { assertTokenUserUsable } from "./sessions.js";
import type { UserTokens } from "./user-tokens.js";

export type { UserContext };

/** What admitting a request of the tenant API looks at. */
interface TenantRequest {
  headers: HeaderBag;
  method: string;
  /** The source address (request.ip). */
  ip: string;
}

const enrolFirst = () =>
  new ApiError(
    "two_factor_enrolment_required",
    "The tenant requires two-step sign-in of this account: set it up first (POST /v1/user/two-factor/enrolment).",
  );

const READS = new Set(["GET", "HEAD"]);

/**
 * The tenant API counts only tokens that do not verify against the source address: the one
 * refusal that costs a signature check and that no signed-in browser sends. A missing, revoked
 * or disabled user's token comes from real consoles (a tab left open, a signed-out session), and
 * an office's staff share one address: counting those would let one person's stale tabs lock out
 * every colleague behind it.
 */
const isForgedToken = (error: ApiError): boolean => error.code === "token_invalid";

/**
 * Bearer authentication for `/v1/…`: a user token (a partner token is refused: other audience),
 * its user still there and in the token's tenant. The tenant comes from the token only.
 */
export class UserAuthenticator {
  readonly #refusals: RefusalShare;

  constructor(
    private readonly tokens: UserTokens,
    private readonly store: TenantStore,
    /** The `refusals` and `tenant_reads` shares (absent: nothing is counted). */
    private readonly shares?: Shares,
    /** The console's cookie sessions (absent: bearer tokens only). */
    private readonly consoleSessions?: ConsoleSessions,
    /** Who must set up a second factor first (absent: nobody). */
    private readonly twoFactor?: TwoFactorService,
  ) {
    this.#refusals = new RefusalShare(shares);
  }

  /**
   * A request of the tenant API, counted in its caller's shares (every authenticated route goes
   * through this, guard.ts): a source address over its `refusals` share is turned away with 429
   * before the token is checked, and each refusal counts there; a read (GET, HEAD) counts in
   * its user's and tenant's `tenant_reads` share, so one tenant's reads cannot take the store
   * from the others. `beforeTwoFactor`: the route serves a user who must still set up a second
   * factor (their profile, the set-up itself); every other route refuses them with 403.
   */
  async admit(request: TenantRequest, beforeTwoFactor = false): Promise<UserContext> {
    const address = addressSharer(request.ip);
    this.#refusals.turnAway(address);
    let context: UserContext;
    try {
      context = await this.authenticate(request.headers);
    } catch (error) {
      throw await this.#refusals.counted(error, address, isForgedToken);
    }
    // A user the tenant requires a second factor of, who has none, may only set one up (and
    // read their profile); the store is read only when the tenant's policy applies to them.
    if (!beforeTwoFactor && (await this.twoFactor?.mustEnrol(context.user, context.tenant)))
      throw enrolFirst();
    if (READS.has(request.method))
      await this.shares?.take("tenant_reads", {
        tenant: context.tenant.id,
        party: `user:${context.user.id}`,
      });
    return context;
  }

  /**
   * The user and tenant of a bearer token or, without an Authorization header, of the console's
   * session cookie (also what an open stream re-checks, uncounted). A request with both is
   * judged by its token alone: the cookie never stands in for a token that failed.
   */
  async authenticate(headers: HeaderBag): Promise<UserContext> {
    const cookie = cookieOf(headers, SESSION_COOKIE);
    if (this.consoleSessions && cookie && single(headers, "authorization") === undefined) {
      const { user, tenant } = await this.consoleSessions.authenticate(cookie);
      return { user, tenant };
    }
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
