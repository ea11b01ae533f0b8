import type { FastifyBaseLogger } from "fastify";
import type { IssuedToken } from "../auth/tokens.js";
import { ApiError } from "../http/errors.js";
import type { Clock } from "../lib/clock.js";
import type { TenantStore, UserRecord } from "../store/tenant-store.js";
import type { LoginThrottle } from "./login-throttle.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import type { UserClaims, UserTokens } from "./tokens.js";

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const INVALID = () =>
  new ApiError("invalid_credentials", "The email and password do not match an account.");

/**
 * Tenant users' sign-in with email and password, and refresh, with the partner tokens' hygiene
 * (grace window, one refresh per token, maximum chain age). An unknown address and a wrong
 * password answer alike and cost alike: both run one scrypt verification.
 */
export class UserSessionService {
  #decoy: Promise<string> | undefined;

  constructor(
    private readonly store: TenantStore,
    private readonly tokens: UserTokens,
    private readonly throttle: LoginThrottle,
    private readonly scryptCost: number,
    private readonly now: Clock,
  ) {}

  /** A hash of the current cost that no password matches, made on first use. */
  #decoyHash(): Promise<string> {
    this.#decoy ??= hashPassword(`decoy-${Math.random()}-${Date.now()}`, this.scryptCost);
    return this.#decoy;
  }

  async login(
    email: string,
    password: string,
    log: FastifyBaseLogger,
  ): Promise<IssuedToken<UserClaims>> {
    const address = normaliseEmail(email);
    const key = this.throttle.keyOf(address);
    await this.throttle.assertOpen(key);
    const user = await this.store.findUserByEmail(address);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await this.#decoyHash()));
    if (!user || !matches) {
      await this.throttle.failed(key);
      log.info({ event: "user_login_failed", account: key.slice(0, 12) }, "sign-in refused");
      throw INVALID();
    }
    await this.throttle.succeeded(key);
    const issued = await this.tokens.issue(user);
    log.info(
      { event: "user_login", user_id: user.id, tenant_id: user.tenantId, jti: issued.claims.jti },
      "user token issued",
    );
    return issued;
  }

  async refresh(token: string, log: FastifyBaseLogger): Promise<IssuedToken<UserClaims>> {
    const claims = await this.tokens.verifyRefreshable(token, "sign in again");
    const user = assertTokenUserUsable(await this.store.findUser(claims.sub), claims);
    const issued = await this.tokens.issue(user, { sid: claims.sid, authTime: claims.auth_time });
    if (
      !(await this.store.recordUserTokenRefresh(claims.jti, user.id, issued.claims.jti, this.now()))
    ) {
      log.warn(
        { event: "user_refresh_reused", user_id: user.id, jti: claims.jti, sid: claims.sid },
        "a user token that was already refreshed was presented for refresh again",
      );
      throw new ApiError(
        "refresh_token_reused",
        "This token was already refreshed; use the token that refresh returned, or sign in again.",
      );
    }
    log.info({ event: "user_refresh", user_id: user.id, sid: claims.sid }, "user token refreshed");
    return issued;
  }
}

/** The checks a user token cannot carry: its user exists, in its tenant, password unchanged. */
export function assertTokenUserUsable(
  user: UserRecord | undefined,
  claims: Pick<UserClaims, "tid" | "sv">,
): UserRecord {
  if (!user || user.tenantId !== claims.tid) {
    throw new ApiError("token_invalid", "The token's user no longer exists.");
  }
  if (user.credentialVersion !== claims.sv) {
    throw new ApiError(
      "token_invalid",
      "The password was changed after this token was issued; sign in again.",
    );
  }
  return user;
}
