import type { GatewayConfig } from "../config/config.js";
import type { PartnerDirectory, PartnerView } from "../domain/partners/directory.js";
import { bearerTokenOf, type HeaderBag, single } from "../http/headers.js";
import { type Clock, toUnixSeconds } from "../lib/clock.js";
import { timingSafeEqualString } from "../lib/timing-safe.js";
import { ApiError } from "../problems/api-error.js";
import { addressSharer, RefusalShare, refusalSharer } from "../security/refusals.js";
import { sessionRevoked } from "../security/session-revocation.js";
import type { Shares } from "../security/shares.js";
import type { TokenService } from "../security/tokens.js";
import type { ReplayableRequest, ReplayGuard } from "./replay-guard.js";
import {
  decodeSignature,
  parseSignatureVersion,
  parseTimestamp,
  type SignedRequestLine,
  stringToSign,
  stringToSignV2,
  verifiedBefore,
  verifiesWithAnyKey,
} from "./request-signature.js";
import { signatureHints } from "./signature-hints.js";
import { assertTokenPartnerUsable } from "./token-partner.js";

const SIGNED_HEADERS = ["x-client-id", "x-timestamp", "x-signature"] as const;

/** Refusals of requests whose token verified, by the token's client_id. */
const refusedClients = new WeakMap<object, string>();

/**
 * The client_id of the partner a refusal belongs to: known once the bearer token verified (a
 * refusal before that could be anyone's, so it is nobody's).
 */
export function refusedClientOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? refusedClients.get(error) : undefined;
}

/** X-CLIENT-ID, X-TIMESTAMP and X-SIGNATURE; 401 header_missing naming those absent. */
export function signedHeadersOf(headers: HeaderBag): {
  clientId: string;
  timestamp: string;
  signature: string;
} {
  const missing = SIGNED_HEADERS.filter((h) => !single(headers, h));
  if (missing.length > 0) {
    const names = missing.map((h) => h.toUpperCase());
    throw new ApiError(
      "header_missing",
      `Missing header${names.length > 1 ? "s" : ""}: ${names.join(", ")}.`,
      { missing_headers: names },
    );
  }
  return {
    clientId: single(headers, "x-client-id") as string,
    timestamp: single(headers, "x-timestamp") as string,
    signature: single(headers, "x-signature") as string,
  };
}

/**
 * Throws unless X-TIMESTAMP is readable and within `allowed` seconds of server time; returns
 * when it was sent (Unix ms). Problems carry server_time, so a client can correct its clock.
 */
export function assertFreshTimestamp(timestamp: string, nowMs: number, allowed: number): number {
  const sentAt = parseTimestamp(timestamp);
  const serverTime = { server_time: toUnixSeconds(nowMs) };
  if (sentAt === undefined) {
    throw new ApiError(
      "timestamp_invalid",
      "X-TIMESTAMP must be Unix seconds (e.g. 1767225600); Unix milliseconds or ISO-8601 with an offset are accepted too.",
      serverTime,
    );
  }
  const skewSeconds = (sentAt - nowMs) / 1000;
  if (skewSeconds < -allowed) {
    throw new ApiError(
      "timestamp_too_old",
      `X-TIMESTAMP is ${Math.round(-skewSeconds)} s behind server time ${serverTime.server_time}; at most ${allowed} s is allowed. Check the client's clock.`,
      serverTime,
    );
  }
  if (skewSeconds > allowed) {
    throw new ApiError(
      "timestamp_in_future",
      `X-TIMESTAMP is ${Math.round(skewSeconds)} s ahead of server time ${serverTime.server_time}; at most ${allowed} s is allowed. Check the client's clock.`,
      serverTime,
    );
  }
  return sentAt;
}

/** What a signed request is, besides its headers. */
export interface SignedRequest extends ReplayableRequest {
  /** The source address (request.ip): whose refusals a request without a valid token counts in. */
  address?: string;
}

/**
 * Whose budget a refused request spends in the `refusals` share once its token verified: the
 * token's partner's (only the token's holder can spend it, so nobody can lock another partner
 * out); before that, its source address's.
 */
const partyOfClient = (clientId: string) => refusalSharer(`partner:${clientId}`);

/**
 * The two layers in front of every order operation, checked in this order, each failure with
 * its own code: bearer token; the three signature headers present; X-CLIENT-ID equal to the
 * token's client_id; partner active, secret not rotated (beyond its grace period) and session
 * not revoked; X-TIMESTAMP readable and within the allowed skew; the signature version allowed
 * for the partner; X-SIGNATURE verifying against one of the partner's active keys. `request` is
 * what signature version 2 covers.
 */
export class SignedRequestAuthenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly directory: PartnerDirectory,
    private readonly config: GatewayConfig["signature"],
    private readonly now: Clock,
    /** Refuses exact replays of requests that change state (absent: none are refused). */
    private readonly replays?: ReplayGuard,
    /** Counts refusals in the `refusals` share (absent: refusals are not counted). */
    shares?: Shares,
  ) {
    this.#refusals = new RefusalShare(shares);
  }

  readonly #refusals: RefusalShare;

  /**
   * Whether a request authenticated earlier still would be, but for its timestamp's age and the
   * replay guard: token not expired, partner still usable, session not revoked, and its
   * signature made by a key still active (a revoked key ends what it signed). What an open event
   * stream re-checks; `fresh` reads the partner past the directory's cache (it just changed).
   */
  async stillAuthenticated(
    headers: HeaderBag,
    request: SignedRequestLine,
    fresh = false,
  ): Promise<boolean> {
    try {
      const claims = await this.tokens.verifyAccess(bearerTokenOf(headers, "the access token"));
      if (fresh) this.directory.invalidate(claims.client_id);
      const partner = assertTokenPartnerUsable(
        await this.directory.get(claims.client_id),
        claims.sv,
        this.now(),
      );
      if (partner.revokedSessions.has(claims.sid)) return false;
      const { clientId, timestamp, signature } = signedHeadersOf(headers);
      const version = parseSignatureVersion(single(headers, "x-signature-version")) ?? 1;
      const text =
        version === 2
          ? stringToSignV2(clientId, timestamp, request)
          : stringToSign(clientId, timestamp);
      const decoded = decodeSignature(signature);
      const keys = partner.activeKeys.map((k) => k.keyObject);
      return (
        decoded !== undefined &&
        (await verifiesWithAnyKey(keys, text, decoded, { remember: { header: signature } }))
      );
    } catch {
      return false;
    }
  }

  /**
   * The partner of a signed request, or a refusal. A caller already over its `refusals` share
   * (by address, or by the partner its token or X-CLIENT-ID names) is turned away with 429 before
   * any token or signature is checked; each refusal counts in that share.
   */
  async authenticate(headers: HeaderBag, request: SignedRequest): Promise<PartnerView> {
    const address = request.address === undefined ? undefined : addressSharer(request.address);
    // X-CLIENT-ID is unverified here: it can only turn its sender away, never spend a budget.
    const named = single(headers, "x-client-id");
    this.#refusals.turnAway(address, named === undefined ? undefined : partyOfClient(named));
    let claims: Awaited<ReturnType<TokenService["verifyAccess"]>>;
    try {
      claims = await this.tokens.verifyAccess(
        bearerTokenOf(headers, "the access token from /api/v1/auth/login"),
      );
    } catch (error) {
      throw await this.#refusals.counted(error, address);
    }
    const partner = partyOfClient(claims.client_id);
    this.#refusals.turnAway(partner);
    try {
      return await this.#verifySigned(headers, request, claims.client_id, claims.sv, claims.sid);
    } catch (error) {
      const answered = await this.#refusals.counted(error, partner);
      // From here on the refusal is the token's partner's: its request log may show it.
      if (typeof answered === "object" && answered !== null)
        refusedClients.set(answered, claims.client_id);
      throw answered;
    }
  }

  async #verifySigned(
    headers: HeaderBag,
    request: SignedRequest,
    tokenClientId: string,
    secretVersion: number,
    sid: string,
  ): Promise<PartnerView> {
    const { clientId, timestamp, signature: signatureHeader } = signedHeadersOf(headers);

    if (!timingSafeEqualString(clientId, tokenClientId)) {
      throw new ApiError(
        "client_id_mismatch",
        "X-CLIENT-ID must equal the client_id the token was issued to.",
      );
    }
    const nowMs = this.now();
    const partner = assertTokenPartnerUsable(
      await this.directory.get(tokenClientId),
      secretVersion,
      nowMs,
    );
    if (partner.revokedSessions.has(sid))
      throw sessionRevoked("log in again with the client credentials");

    const sentAt = assertFreshTimestamp(timestamp, nowMs, this.config.maxSkewSeconds);

    if (partner.activeKeys.length === 0) {
      throw new ApiError(
        "no_active_key",
        "No active public key is registered for this partner; contact the integration team.",
      );
    }
    const version = parseSignatureVersion(single(headers, "x-signature-version"));
    if (version === undefined) {
      throw new ApiError(
        "signature_version_unsupported",
        "X-SIGNATURE-VERSION must be 1 or 2 (absent means 1).",
        { supported_signature_versions: [1, 2] },
      );
    }
    if (version < partner.signatureVersion) {
      throw new ApiError(
        "signature_version_required",
        "This partner must sign requests with signature version 2: send 'X-SIGNATURE-VERSION: 2' and sign method, path, timestamp and body digest (see the API guide, 'Signing requests').",
        { required_signature_version: partner.signatureVersion },
      );
    }
    await this.#verifySignature(partner, version, clientId, timestamp, signatureHeader, request);
    // Only a request that verifies is remembered: a forged copy must not use up a nonce.
    await this.replays?.claim(request, { clientId, timestamp, signature: signatureHeader }, sentAt);
    return partner;
  }

  /** Throws signature_malformed or signature_invalid (with the expected string and hints). */
  async #verifySignature(
    partner: PartnerView,
    version: 1 | 2,
    clientId: string,
    timestamp: string,
    signatureHeader: string,
    request: SignedRequestLine,
  ): Promise<void> {
    const v1 = stringToSign(clientId, timestamp);
    const keys = partner.activeKeys.map((k) => k.keyObject);
    // Version 1 signs client_id|timestamp only, so a partner sends one signature all second.
    if (version === 1 && verifiedBefore(keys, v1, signatureHeader)) return;
    // Version 2's text only when it is signed or a refusal's hints name it.
    const v2 = () => stringToSignV2(clientId, timestamp, request);
    const expected = version === 2 ? v2() : v1;
    const details = { signature_version: version, string_to_sign: expected };
    const signature = decodeSignature(signatureHeader);
    if (signature === undefined) {
      throw new ApiError(
        "signature_malformed",
        "X-SIGNATURE must be the base64 encoding of the RSA signature.",
        details,
      );
    }
    // Version 2 signs the body too, so its signature seldom comes again: not worth remembering.
    const remember = version === 1 ? { remember: { header: signatureHeader } } : {};
    if (!(await verifiesWithAnyKey(keys, expected, signature, remember))) {
      const hints = await signatureHints({
        header: signatureHeader,
        signature,
        keys,
        expected,
        otherVersion:
          version === 1
            ? { version: 2, text: v2(), howTo: "send 'X-SIGNATURE-VERSION: 2' with it." }
            : { version: 1, text: v1, howTo: "with version 2, sign string_to_sign as shown." },
      });
      throw new ApiError(
        "signature_invalid",
        `X-SIGNATURE is not a SHA256withRSA signature of string_to_sign by an active key of this partner.${hints.length > 0 ? ` ${hints.map((h) => h.detail).join(" ")}` : ""}`,
        { ...details, hints },
      );
    }
  }
}

export { type HeaderBag, single };
