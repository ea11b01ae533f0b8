import { createHash, type KeyObject, verify } from "node:crypto";
import { BoundedCache } from "../lib/bounded-cache.js";

/**
 * The seed's request signature: X-SIGNATURE = base64(SHA256withRSA(private key,
 * client_id + "|" + X-TIMESTAMP)), with the timestamp exactly as sent in the header.
 */
export function stringToSign(clientId: string, timestampHeader: string): string {
  return `${clientId}|${timestampHeader}`;
}

/** What version 2 signs besides client_id and timestamp: the request itself. */
export interface SignedRequestLine {
  method: string;
  /** Path and query exactly as received. */
  target: string;
  /** Lowercase hex SHA-256 of the exact body bytes received. */
  bodySha256: string;
}

export const EMPTY_BODY_SHA256 = createHash("sha256").digest("hex");

/**
 * Signature version 2 (`X-SIGNATURE-VERSION: 2`): six lines joined by "\n", no trailing newline:
 * `v2`, client_id, X-TIMESTAMP as sent, METHOD, path with query, hex SHA-256 of the body. The
 * leading `v2` keeps a signature of one version from ever verifying as the other.
 */
export function stringToSignV2(
  clientId: string,
  timestampHeader: string,
  request: SignedRequestLine,
): string {
  return [
    "v2",
    clientId,
    timestampHeader,
    request.method.toUpperCase(),
    request.target,
    request.bodySha256,
  ].join("\n");
}

/** X-SIGNATURE-VERSION: absent means 1; otherwise exactly "1" or "2". */
export function parseSignatureVersion(header: string | undefined): 1 | 2 | undefined {
  if (header === undefined) return 1;
  const value = header.trim();
  return value === "1" ? 1 : value === "2" ? 2 : undefined;
}

/**
 * X-TIMESTAMP in Unix seconds (the documented form), Unix milliseconds (13 digits), or ISO-8601
 * with an explicit offset (`Z` or `±hh:mm`). Returns Unix ms, or undefined when it is none of these.
 */
export function parseTimestamp(header: string): number | undefined {
  if (/^\d{1,11}$/.test(header)) return Number(header) * 1000;
  if (/^\d{12,13}$/.test(header)) return Number(header);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(header)) {
    const ms = Date.parse(header);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Standard or URL-safe base64, padding optional; anything else is malformed. */
export function decodeSignature(header: string): Buffer | undefined {
  if (header.length === 0 || header.length > 2048) return undefined;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(header)) return undefined;
  const bytes = Buffer.from(header.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length > 0 ? bytes : undefined;
}

/**
 * Signatures that verified, by signature and signed text, with the key they verified with.
 * Version 1 signs only `client_id|timestamp`, so every request a partner sends within one second
 * carries the same signature, and RSA verification of the same key, text and signature always
 * gives the same answer: a repeat costs a lookup instead of a verification (a quarter of a signed
 * create's CPU on the HTTP thread). Only successes are kept, so a forged signature always gets
 * the full check. A hit counts only while its key is among those the caller passes: a revoked
 * key leaves the partner's active keys, and with them every signature it verified. No expiry:
 * the answer cannot go stale, and callers check the timestamp's window before verifying.
 */
const verified = new BoundedCache<string, KeyObject>(4096);

/**
 * Whether the signature verifies against any of the keys (RSASSA-PKCS1-v1_5 with SHA-256).
 * Synchronous on purpose: an RSA verification (public exponent 65537) takes tens of
 * microseconds, while the callback form queues on libuv's thread pool behind whatever else
 * runs there (password hashing above all), which made signed requests wait seconds under a
 * sign-in flood. `remember`: the same signature is likely to come again (version 1, a login, an
 * event stream's re-check), so a success is kept, under the header as sent, for the next time.
 */
export async function verifiesWithAnyKey(
  keys: readonly KeyObject[],
  data: string,
  signature: Buffer,
  options: { remember?: RememberAs } = {},
): Promise<boolean> {
  const id = options.remember === undefined ? undefined : rememberedId(options.remember, data);
  if (id !== undefined && hitAmong(keys, id)) return true;
  const bytes = Buffer.from(data, "utf8");
  for (const key of keys) {
    let ok = false;
    try {
      ok = verify("sha256", bytes, key, signature);
    } catch {
      ok = false;
    }
    if (ok) {
      if (id !== undefined) verified.set(id, key, Number.POSITIVE_INFINITY);
      return true;
    }
  }
  return false;
}

/**
 * The X-SIGNATURE header exactly as sent, under which a success is remembered: the same text
 * always decodes to the same bytes, so a repeat is recognised before it is decoded at all.
 */
export interface RememberAs {
  header: string;
}

const rememberedId = (remember: RememberAs, data: string) => `${remember.header} ${data}`;

const hitAmong = (keys: readonly KeyObject[], id: string): boolean => {
  const key = verified.get(id, 0);
  return key !== undefined && keys.includes(key);
};

/** Whether `header` verified `data` before with a key still among `keys` (no decoding, no RSA). */
export const verifiedBefore = (keys: readonly KeyObject[], data: string, header: string) =>
  hitAmong(keys, rememberedId({ header }, data));
