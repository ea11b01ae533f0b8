import type { Clock } from "../lib/clock.js";
import type { SigningKeyRing } from "../security/signing-keys.js";
import {
  type BaseClaims,
  type IssuedToken,
  isString,
  JwtTokens,
  type TokenConfig,
  type TokenKind,
} from "../security/tokens.js";
import type { UserRecord } from "../store/tenant-store.js";

/**
 * A tenant user's token: the subject is the user id, `tid` the tenant. Same signing keys, issuer,
 * lifetime and refresh rules as partner tokens, another audience, so neither kind is accepted by
 * the other API. The role is not in the token: it is read from the store on every request.
 */
export interface UserClaims extends BaseClaims {
  tid: string;
}

const USER_TOKENS: TokenKind<UserClaims> = {
  parseExtra: (claims) => (isString(claims.tid) ? { tid: claims.tid } : undefined),
  refreshPath: "/v1/auth/refresh",
};

export class UserTokens extends JwtTokens<UserClaims> {
  constructor(keys: SigningKeyRing, config: TokenConfig, now: Clock) {
    super(keys, config, now, USER_TOKENS);
  }

  issue(
    user: Pick<UserRecord, "id" | "tenantId" | "credentialVersion">,
    session?: { sid: string; authTime: number },
  ): Promise<IssuedToken<UserClaims>> {
    return this.sign(
      { sub: user.id, sv: user.credentialVersion, extra: { tid: user.tenantId } },
      session,
    );
  }
}
