import { SignJWT } from "jose";
import type { GatewayConfig } from "../config/config.js";
import { BoundedCache } from "../lib/bounded-cache.js";
import { type Clock, toUnixSeconds } from "../lib/clock.js";
import { randomToken } from "../lib/random.js";
import { ApiError } from "../problems/api-error.js";
import { verifyCompactJws } from "./jws.js";
import { JWT_ALGORITHM, type SigningKeyRing } from "./signing-keys.js";

/** The claims every gateway token carries, whichever API it is for. */
export interface BaseClaims {
  iss: string;
  aud: string;
  sub: string;
  iat: number;
  exp: number;
  jti: string;
  /** Session id: the jti of the login that started this refresh chain. */
  sid: string;
  /** Unix seconds of that login; caps the refresh chain. */
  auth_time: number;
  /** The subject's credential version at issue; changing the credential invalidates older tokens. */
  sv: number;
}

/** A partner API token: the subject is the partner's client_id, repeated as `client_id`. */
interface AccessClaims extends BaseClaims {
  client_id: string;
}

export interface IssuedToken<C extends BaseClaims = AccessClaims> {
  token: string;
  expired_at: number;
  claims: C;
}

export type TokenConfig = Pick<
  GatewayConfig["jwt"],
  "issuer" | "audience" | "ttlSeconds" | "refreshGraceSeconds" | "sessionMaxSeconds"
>;

/** What differs between the token kinds: the claims beyond the base, and how they read. */
export interface TokenKind<C extends BaseClaims> {
  /** The extra claims of a verified payload, or undefined when they are missing or malformed. */
  parseExtra(claims: Record<string, unknown>, sub: string): Omit<C, keyof BaseClaims> | undefined;
  /** Where the holder renews the token (named in the token_expired detail). */
  refreshPath: string;
}

export const isString = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

function parseBase(claims: Record<string, unknown>): BaseClaims | undefined {
  const { iss, aud, sub, iat, exp, jti, sid, auth_time, sv } = claims;
  if (!isString(iss) || !isString(aud) || !isString(sub)) return undefined;
  if (
    !isInt(iat) ||
    !isInt(exp) ||
    !isString(jti) ||
    !isString(sid) ||
    !isInt(auth_time) ||
    !isInt(sv)
  ) {
    return undefined;
  }
  return { iss, aud, sub, iat, exp, jti, sid, auth_time, sv };
}

/**
 * Issues and verifies one audience's tokens. Verification pins the algorithm list, so
 * `alg: none` and HS256-with-the-public-key never reach a key; it then checks issuer and
 * audience: a token of the gateway's other API is refused (`token_invalid`, the detail says why). A verified
 * token is cached until it expires: its signature cannot change, and the checks that can
 * (subject disabled, credential changed) run on every request, not against this cache.
 */
export class JwtTokens<C extends BaseClaims> {
  readonly #verified = new BoundedCache<string, C>(50_000);

  constructor(
    private readonly keys: SigningKeyRing,
    readonly config: TokenConfig,
    protected readonly now: Clock,
    private readonly kind: TokenKind<C>,
  ) {}

  async sign(
    subject: { sub: string; sv: number; extra: Omit<C, keyof BaseClaims> },
    session?: { sid: string; authTime: number },
  ): Promise<IssuedToken<C>> {
    const { kid, privateKey } = await this.keys.signingKey();
    const iat = toUnixSeconds(this.now());
    const jti = randomToken();
    const claims = {
      iss: this.config.issuer,
      aud: this.config.audience,
      sub: subject.sub,
      ...subject.extra,
      iat,
      exp: iat + this.config.ttlSeconds,
      jti,
      sid: session?.sid ?? jti,
      auth_time: session?.authTime ?? iat,
      sv: subject.sv,
    } as C;
    const token = await new SignJWT({ ...claims } as Record<string, unknown>)
      .setProtectedHeader({ alg: JWT_ALGORITHM, kid, typ: "JWT" })
      .sign(privateKey);
    return { token, expired_at: claims.exp, claims };
  }

  /**
   * Checks signature, algorithm, issuer, audience and claim shapes, but not expiry: refresh
   * accepts expired tokens and applies its own window.
   */
  async verifyIgnoringExpiry(token: string): Promise<C> {
    const cached = this.#verified.get(token, this.now());
    if (cached) return cached;
    const invalid = () =>
      new ApiError(
        "token_invalid",
        "The bearer token is malformed, was not issued by this gateway, or was altered.",
      );
    const payload = await verifyCompactJws(token, (kid) => this.keys.verificationKey(kid));
    if (payload === undefined) throw invalid();
    let raw: unknown;
    try {
      raw = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      throw invalid();
    }
    if (raw === null || typeof raw !== "object") throw invalid();
    const record = raw as Record<string, unknown>;
    const base = parseBase(record);
    if (base === undefined || base.iss !== this.config.issuer) throw invalid();
    if (base.aud !== this.config.audience) {
      throw new ApiError(
        "token_invalid",
        `This token was issued for another API of the gateway (audience '${base.aud}'); this endpoint takes tokens for '${this.config.audience}'.`,
      );
    }
    const extra = this.kind.parseExtra(record, base.sub);
    if (extra === undefined) throw invalid();
    const claims = { ...base, ...extra } as C;
    // Cached for as long as a refresh could still present it.
    this.#verified.set(token, claims, (claims.exp + this.config.refreshGraceSeconds + 1) * 1000);
    return claims;
  }

  /** Verifies a token for an API call: everything above, and not expired. */
  async verifyAccess(token: string): Promise<C> {
    const claims = await this.verifyIgnoringExpiry(token);
    const now = toUnixSeconds(this.now());
    if (now >= claims.exp) {
      throw new ApiError(
        "token_expired",
        `The token expired at ${new Date(claims.exp * 1000).toISOString()}; renew it with POST ${this.kind.refreshPath}.`,
        { expired_at: claims.exp },
      );
    }
    return claims;
  }

  /**
   * Verifies a token presented for refresh and applies the limits on refreshing: a grace window
   * after expiry and a maximum age of the whole chain since login. `loginHint` says how to start
   * a new session.
   */
  async verifyRefreshable(token: string, loginHint: string): Promise<C> {
    const claims = await this.verifyIgnoringExpiry(token);
    const now = toUnixSeconds(this.now());
    const windowEnd = claims.exp + this.config.refreshGraceSeconds;
    if (now > windowEnd) {
      throw new ApiError(
        "refresh_window_closed",
        `The token could be refreshed until ${new Date(windowEnd * 1000).toISOString()}; ${loginHint}.`,
      );
    }
    const sessionEnd = claims.auth_time + this.config.sessionMaxSeconds;
    if (now > sessionEnd) {
      throw new ApiError(
        "session_expired",
        `This session started at ${new Date(claims.auth_time * 1000).toISOString()} and can no longer be extended; ${loginHint}.`,
      );
    }
    return claims;
  }
}

const PARTNER_TOKENS: TokenKind<AccessClaims> = {
  parseExtra: (claims, sub) =>
    isString(claims.client_id) && claims.client_id === sub
      ? { client_id: claims.client_id }
      : undefined,
  refreshPath: "/api/v1/auth/refresh",
};

/** The partner API's tokens. */
export class TokenService extends JwtTokens<AccessClaims> {
  constructor(keys: SigningKeyRing, config: TokenConfig, now: Clock) {
    super(keys, config, now, PARTNER_TOKENS);
  }

  issue(
    partner: { clientId: string; secretVersion: number },
    session?: { sid: string; authTime: number },
  ): Promise<IssuedToken> {
    return this.sign(
      { sub: partner.clientId, sv: partner.secretVersion, extra: { client_id: partner.clientId } },
      session,
    );
  }
}
