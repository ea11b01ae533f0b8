import { hash } from "node:crypto";
import { requestReplayed } from "../security/request-replayed.js";
import type { NonceClaim, TenantStore } from "../store/tenant-store.js";
import { EMPTY_BODY_SHA256, type SignedRequestLine } from "./request-signature.js";

/** Methods that only read: replaying them changes nothing, so they are not remembered. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The signature headers of one signed request, as sent. */
export interface SignatureHeaders {
  clientId: string;
  timestamp: string;
  signature: string;
}

/** What the authenticator is given of a request, for its signature and this guard. */
export interface ReplayableRequest extends SignedRequestLine {
  /**
   * The body as received, for a request whose body bytes were not hashed (version 1 signs none,
   * so they are not tapped): two different orders signed in the same millisecond share a version 1
   * signature and must still be told apart.
   */
  bodyText?: string;
  /**
   * Set when the request stores its nonce in its own transaction (an order creation): the guard
   * hands the nonce over instead of claiming it. A nonce claimed on its own commits before the
   * request's work does, so a request whose instance died in between was refused as a replay
   * when sent again, with nothing done.
   */
  nonceInTransaction?: (nonce: NonceClaim) => void;
}

/**
 * The body part of the nonce: the exact bytes' digest when it was taken, else the body's text
 * itself (hashed once with the rest: no digest of its own, no serialising the parsed body again).
 * Unambiguous in the joined text: only the body may hold a line break, and what follows it
 * (timestamp, signature) never does.
 */
function bodyPartOf(request: ReplayableRequest): string {
  if (request.bodySha256 !== EMPTY_BODY_SHA256 || request.bodyText === undefined)
    return request.bodySha256;
  return `body:${request.bodyText}`;
}

/**
 * Refuses an exact replay of a signed request that changes state while its X-TIMESTAMP is
 * inside the allowed window (outside it the timestamp check refuses it anyway). The nonce is the
 * request's time followed by a SHA-256 over client_id, method, target, body digest, timestamp
 * and signature, kept in the store (request_nonces), which every instance shares, until the
 * window for that timestamp ends; the purge then deletes it. Keyed by the whole request, not the signature alone: a
 * version 1 signature covers only client_id and timestamp, so two different orders signed in
 * the same second share it and must both be accepted.
 */
export class ReplayGuard {
  constructor(
    private readonly store: TenantStore,
    private readonly maxSkewSeconds: number,
  ) {}

  /** `sentAt`: the request's X-TIMESTAMP as Unix ms (already checked to be in the window). */
  async claim(request: ReplayableRequest, sent: SignatureHeaders, sentAt: number): Promise<void> {
    if (SAFE_METHODS.has(request.method.toUpperCase())) return;
    const nonce = this.#nonceOf(request, sent, sentAt);
    if (request.nonceInTransaction !== undefined) return request.nonceInTransaction(nonce);
    if (!(await this.store.claimRequestNonce(nonce.key, nonce.expiresAt))) throw requestReplayed();
  }

  #nonceOf(request: ReplayableRequest, sent: SignatureHeaders, sentAt: number): NonceClaim {
    // The one-shot hash: a Hash object per digest cost a create about 2 µs each (two of them).
    const digest = hash(
      "sha256",
      [
        sent.clientId,
        request.method.toUpperCase(),
        request.target,
        bodyPartOf(request),
        sent.timestamp,
        sent.signature,
      ].join("\n"),
      "base64url",
    );
    // Led by the request's own time (a replay carries the same X-TIMESTAMP, so the same key):
    // new nonces land at the end of the key's index instead of on a random page each, which
    // cost a page write per nonce at every commit once the window held many.
    const key = `${sentAt.toString(16).padStart(12, "0")}.${digest}`;
    // A second past the window's end, so clock rounding never frees a nonce early.
    return { key, expiresAt: sentAt + this.maxSkewSeconds * 1000 + 1000 };
  }
}
