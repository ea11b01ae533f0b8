import type { FastifyBaseLogger } from "fastify";
import type { PartnerDirectory } from "../domain/partners/directory.js";
import type { Clock } from "../lib/clock.js";
import { ApiError } from "../problems/api-error.js";
import {
  hashClientSecret,
  loggableClientId,
  verifyClientSecret,
} from "../security/client-secret.js";
import type { LoginThrottle } from "../security/login-throttle.js";
import { reusedRefresh, revokeSession, sessionRevoked } from "../security/session-revocation.js";
import type { IssuedToken, TokenService } from "../security/tokens.js";
import type { Store } from "../store/store.js";
import { assertTokenPartnerUsable, secretVersionUsable } from "./token-partner.js";

/**
 * Login with client credentials and refresh of an (even expired) token, with the refresh risk
 * bounded: a grace window after expiry, one refresh per token (a second one revokes the whole
 * session), a maximum chain age, and no refresh once the partner is disabled or its secret
 * rotated (beyond the rotation's grace period).
 */
export class SessionService {
  /** Compared against when the client_id is unknown, so both failures cost the same. */
  readonly #decoyHash: string;

  constructor(
    private readonly store: Store,
    private readonly tokens: TokenService,
    private readonly pepper: Buffer,
    private readonly now: Clock,
    private readonly throttle: LoginThrottle,
    private readonly directory?: PartnerDirectory,
  ) {
    this.#decoyHash = hashClientSecret(pepper, "decoy-secret-that-matches-nothing");
  }

  /**
   * `source` is the caller's addressBucket(); `proven`: the login carried a valid signature by
   * the partner's key (login-proof.ts), so only failures that did too can throttle it.
   */
  async login(
    clientId: string,
    clientSecret: string,
    source: string,
    log: FastifyBaseLogger,
    proven = false,
  ): Promise<IssuedToken> {
    const keys = this.throttle.keysOf("partner", clientId, source);
    await this.throttle.assertOpen(keys, proven);
    const partner = await this.store.findPartnerByClientId(clientId);
    const now = this.now();
    // Both comparisons always run, so the answer's timing says nothing about a rotation.
    const current = verifyClientSecret(
      this.pepper,
      clientSecret,
      partner?.secretHash ?? this.#decoyHash,
    );
    const previous = verifyClientSecret(
      this.pepper,
      clientSecret,
      partner?.previousSecretHash ?? this.#decoyHash,
    );
    const secretVersion = !partner
      ? undefined
      : current
        ? partner.secretVersion
        : previous && secretVersionUsable(partner, partner.secretVersion - 1, now)
          ? partner.secretVersion - 1
          : undefined;
    if (!partner || secretVersion === undefined) {
      await this.throttle.failed(keys, proven);
      log.info(
        { event: "login_failed", client_id: loggableClientId(clientId), proven },
        "login refused",
      );
      throw new ApiError(
        "invalid_client",
        "The client_id and client_secret do not match a partner.",
      );
    }
    await this.throttle.succeeded(keys, proven);
    if (partner.status !== "active") {
      throw new ApiError(
        "partner_disabled",
        "This partner is disabled; contact the integration team.",
      );
    }
    // A login with the previous secret gets a token of the previous version: it stops working
    // when the grace period ends, like every other token issued under that secret.
    const issued = await this.tokens.issue({ clientId: partner.clientId, secretVersion });
    log.info(
      {
        event: "login",
        client_id: partner.clientId,
        jti: issued.claims.jti,
        proven,
        ...(secretVersion !== partner.secretVersion ? { previous_secret: true } : {}),
      },
      "token issued",
    );
    return issued;
  }

  async refresh(token: string, log: FastifyBaseLogger): Promise<IssuedToken> {
    const claims = await this.tokens.verifyRefreshable(
      token,
      "log in again with the client credentials",
    );
    // Read the partner from the store, not a cache: refresh is rare and must see every change.
    const partner = assertTokenPartnerUsable(
      await this.store.findPartnerByClientId(claims.client_id),
      claims.sv,
      this.now(),
    );
    if (await this.store.tenants.isSessionRevoked(claims.sid))
      throw sessionRevoked("log in again with the client credentials");
    // The new token keeps the secret version of the old one: refreshing never outlives a rotation.
    const issued = await this.tokens.issue(
      { clientId: partner.clientId, secretVersion: claims.sv },
      { sid: claims.sid, authTime: claims.auth_time },
    );
    if (
      !(await this.store.recordTokenRefresh(claims.jti, partner.id, issued.claims.jti, this.now()))
    ) {
      await revokeSession(
        this.store.tenants,
        `partner:${partner.id}`,
        claims,
        this.tokens.config,
        this.now(),
      );
      this.directory?.invalidate(partner.clientId);
      log.warn(
        { event: "refresh_reused", client_id: partner.clientId, jti: claims.jti, sid: claims.sid },
        "a token that was already refreshed was presented for refresh again; its session is revoked",
      );
      throw reusedRefresh("log in again with the client credentials");
    }
    log.info(
      { event: "refresh", client_id: partner.clientId, jti: issued.claims.jti, sid: claims.sid },
      "token refreshed",
    );
    return issued;
  }
}
