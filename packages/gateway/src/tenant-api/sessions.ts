import type { FastifyBaseLogger } from "fastify";
import { normaliseEmail } from "../domain/users/accounts.js";
import type { Clock } from "../lib/clock.js";
import { ApiError } from "../problems/api-error.js";
import { type FairHashQueue, type HashTicket, QueueFull } from "../security/fair-hash-queue.js";
import type { LoginThrottle } from "../security/login-throttle.js";
import { decoyHash, verifyPassword } from "../security/passwords.js";
import type { Scrypt } from "../security/scrypt-threads.js";
import { reusedRefresh, revokeSession, sessionRevoked } from "../security/session-revocation.js";
import type { IssuedToken } from "../security/tokens.js";
import type { TenantStore, UserRecord } from "../store/tenant-store.js";
import type { UserClaims, UserTokens } from "./user-tokens.js";

const userDisabled = () =>
  new ApiError(
    "user_disabled",
    "This account was disabled by a tenant admin; ask them to enable it.",
  );

const INVALID = () =>
  new ApiError("invalid_credentials", "The email and password do not match an account.");

/**
 * Tenant users' sign-in with email and password, and refresh, with the partner tokens' hygiene
 * (grace window, one refresh per token, maximum chain age). An unknown address and a wrong
 * password answer alike and cost alike: both run one scrypt verification.
 */
export class UserSessionService {
  #saturationLoggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: TenantStore,
    private readonly tokens: UserTokens,
    private readonly throttle: LoginThrottle,
    scryptCost: number,
    private readonly now: Clock,
    /**
     * Every password check of this process goes through here: shares per source and account,
     * priority for clean sources, 503 beyond (fair-hash-queue.ts).
     */
    private readonly hashing: FairHashQueue,
    /**
     * Where scrypt runs for a check of this priority (ScryptThreads in the gateway): addresses
     * with failures on threads of lowered CPU priority, the others at normal priority, so a
     * flood's cheap refusals on the HTTP thread cannot starve the owner's hash.
     */
    private readonly scryptFor: (priority: HashTicket["priority"]) => Scrypt,
    /** Told of each successful sign-in (the team list's "last sign-in"). */
    private readonly signedIn: (userId: string, at: number) => Promise<void> = async () => {},
  ) {
    this.#decoy = decoyHash(scryptCost);
  }

  async #hashing<T>(
    ticket: HashTicket,
    task: (servedAt: HashTicket["priority"]) => Promise<T>,
    log: FastifyBaseLogger,
  ): Promise<T> {
    try {
      return await this.hashing.run(ticket, task);
    } catch (error) {
      if (!(error instanceof QueueFull)) throw error;
      throw this.#busy(error, log);
    }
  }

  /** 503 login_busy for a check hashing has no room for; logged at most once per 10 s. */
  #busy(refusal: QueueFull, log: FastifyBaseLogger): ApiError {
    // Once per 10 s: a flood must not turn into a flood of log lines.
    const now = this.now();
    if (now - this.#saturationLoggedAt >= 10_000) {
      this.#saturationLoggedAt = now;
      log.warn(
        { event: "password_hashing_saturated", queued: this.hashing.queued },
        "sign-ins refused with 503: password hashing queue full",
      );
    }
    return new ApiError(
      "login_busy",
      `Too many sign-ins are being checked right now; retry in ${refusal.retryAfterSeconds} s.`,
      { retry_after: refusal.retryAfterSeconds },
      { retryAfterSeconds: refusal.retryAfterSeconds },
    );
  }

  /**
   * A stored hash of the current cost that no password matches: a random key, so checking it
   * costs one scrypt like a real one, and making it costs none (made with scrypt, on first use,
   * it held a hashing slot for a hash of its own, at the flood's CPU priority).
   */
  readonly #decoy: string;

  /** `source` is the caller's addressBucket(). */
  async login(
    email: string,
    password: string,
    source: string,
    log: FastifyBaseLogger,
  ): Promise<IssuedToken<UserClaims>> {
    return this.issue(await this.checkPassword(email, password, source, log), log);
  }

  /** A token for a user whose every factor was checked (after checkPassword, a second factor). */
  async issue(user: UserRecord, log: FastifyBaseLogger): Promise<IssuedToken<UserClaims>> {
    const issued = await this.tokens.issue(user);
    await this.signedIn(user.id, this.now());
    log.info(
      { event: "user_login", user_id: user.id, tenant_id: user.tenantId, jti: issued.claims.jti },
      "user token issued",
    );
    return issued;
  }

  /**
   * The user whose email and password these are, throttled and queued as every sign-in is
   * (both the bearer token's and the console session's); the caller records the sign-in.
   */
  async checkPassword(
    email: string,
    password: string,
    source: string,
    log: FastifyBaseLogger,
  ): Promise<UserRecord> {
    const address = normaliseEmail(email);
    const keys = this.throttle.keysOf("user", address, source);
    // An address that just failed here, or that hashing keeps refusing, would queue at the
    // flood's priority: while hashing has no room for that, it is refused before any store
    // round trip, so a flood's refusals cost the store nothing.
    const flooding = this.throttle.failedHere(keys) || this.hashing.flooding(source);
    const early = flooding ? this.hashing.refusalFor(source, 2) : undefined;
    if (early) throw this.#busy(early, log);
    const standing = await this.throttle.assertOpen(keys);
    const user = await this.store.findUserByEmail(address);
    const ticket: HashTicket = {
      source,
      account: keys.account,
      priority: standing.succeededRecently ? 0 : standing.failed ? 2 : 1,
    };
    const matches = await this.#hashing(
      ticket,
      (servedAt) =>
        verifyPassword(
          password,
          // An invited user has no password yet: the decoy, so they cost and answer alike.
          user?.passwordHash || this.#decoy,
          this.scryptFor(servedAt),
        ),
      log,
    );
    if (!user || !matches) {
      await this.throttle.failed(keys);
      log.info(
        { event: "user_login_failed", account: keys.account.slice(0, 12) },
        "sign-in refused",
      );
      throw INVALID();
    }
    await this.throttle.succeeded(keys);
    // Only after the password matched: a disabled account is not revealed to a guesser.
    if (user.disabledAt) throw userDisabled();
    return user;
  }

  /** Records a console sign-in (the team list's "last sign-in"), as login() does for tokens. */
  recordSignIn(userId: string): Promise<void> {
    return this.signedIn(userId, this.now());
  }

  async refresh(token: string, log: FastifyBaseLogger): Promise<IssuedToken<UserClaims>> {
    const claims = await this.tokens.verifyRefreshable(token, "sign in again");
    const user = assertTokenUserUsable(await this.store.findUser(claims.sub), claims);
    if (await this.store.isSessionRevoked(claims.sid)) throw sessionRevoked("sign in again");
    const issued = await this.tokens.issue(user, { sid: claims.sid, authTime: claims.auth_time });
    if (
      !(await this.store.recordUserTokenRefresh(claims.jti, user.id, issued.claims.jti, this.now()))
    ) {
      await revokeSession(this.store, `user:${user.id}`, claims, this.tokens.config, this.now());
      log.warn(
        { event: "user_refresh_reused", user_id: user.id, jti: claims.jti, sid: claims.sid },
        "a user token that was already refreshed was presented for refresh again; its session is revoked",
      );
      throw reusedRefresh("sign in again");
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
  if (user.disabledAt) throw userDisabled();
  if (user.credentialVersion !== claims.sv) {
    throw new ApiError(
      "token_invalid",
      "The password was changed after this token was issued; sign in again.",
    );
  }
  return user;
}
