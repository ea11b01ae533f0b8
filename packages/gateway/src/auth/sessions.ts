import type { FastifyBaseLogger } from "fastify";
import { ApiError } from "../http/errors.js";
import type { Clock } from "../lib/clock.js";
import type { Store } from "../store/store.js";
import { hashClientSecret, loggableClientId, verifyClientSecret } from "./client-secret.js";
import { assertTokenPartnerUsable } from "./token-partner.js";
import type { IssuedToken, TokenService } from "./tokens.js";

/**
 * Login with client credentials and refresh of an (even expired) token, with the refresh risk
 * bounded: a grace window after expiry, one refresh per token, a maximum chain age, and no
 * refresh once the partner is disabled or its secret rotated.
 */
export class SessionService {
  /** Compared against when the client_id is unknown, so both failures cost the same. */
  readonly #decoyHash: string;

  constructor(
    private readonly store: Store,
    private readonly tokens: TokenService,
    private readonly pepper: Buffer,
    private readonly now: Clock,
  ) {
    this.#decoyHash = hashClientSecret(pepper, "decoy-secret-that-matches-nothing");
  }

  async login(
    clientId: string,
    clientSecret: string,
    log: FastifyBaseLogger,
  ): Promise<IssuedToken> {
    const partner = await this.store.findPartnerByClientId(clientId);
    const matches = verifyClientSecret(
      this.pepper,
      clientSecret,
      partner?.secretHash ?? this.#decoyHash,
    );
    if (!partner || !matches) {
      log.info({ event: "login_failed", client_id: loggableClientId(clientId) }, "login refused");
      throw new ApiError(
        "invalid_client",
        "The client_id and client_secret do not match a partner.",
      );
    }
    if (partner.status !== "active") {
      throw new ApiError(
        "partner_disabled",
        "This partner is disabled; contact the integration team.",
      );
    }
    const issued = await this.tokens.issue(partner);
    log.info(
      { event: "login", client_id: partner.clientId, jti: issued.claims.jti },
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
    );
    const issued = await this.tokens.issue(partner, {
      sid: claims.sid,
      authTime: claims.auth_time,
    });
    if (
      !(await this.store.recordTokenRefresh(claims.jti, partner.id, issued.claims.jti, this.now()))
    ) {
      log.warn(
        { event: "refresh_reused", client_id: partner.clientId, jti: claims.jti, sid: claims.sid },
        "a token that was already refreshed was presented for refresh again",
      );
      throw new ApiError(
        "refresh_token_reused",
        "This token was already refreshed; use the token that refresh returned, or log in again.",
      );
    }
    log.info(
      { event: "refresh", client_id: partner.clientId, jti: issued.claims.jti, sid: claims.sid },
      "token refreshed",
    );
    return issued;
  }
}
