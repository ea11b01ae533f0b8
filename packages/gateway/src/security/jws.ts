import { type KeyObject, verify } from "node:crypto";
import { ACCEPTED_ALGORITHMS } from "./signing-keys.js";

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies a compact JWS signed by the gateway and returns its payload bytes, or undefined when
 * it is malformed, names an algorithm other than the gateway's, carries header parameters the
 * gateway never sets (`crit`, `b64`), names no known key, or does not verify. The Ed25519
 * verification is node:crypto's synchronous one (a few tens of microseconds): jose's goes through
 * WebCrypto, which queues on libuv's thread pool behind password hashing.
 */
export async function verifyCompactJws(
  token: string,
  keyFor: (kid: string | undefined) => Promise<KeyObject | undefined>,
): Promise<Uint8Array | undefined> {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [encodedHeader = "", encodedPayload = "", encodedSignature = ""] = parts;
  if (!parts.every((part) => BASE64URL.test(part))) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(encodedHeader, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== "object" || Array.isArray(header)) return undefined;
  const { alg, kid, crit, b64 } = header as Record<string, unknown>;
  if (typeof alg !== "string" || !ACCEPTED_ALGORITHMS.includes(alg)) return undefined;
  if (crit !== undefined || b64 !== undefined) return undefined;
  if (kid !== undefined && typeof kid !== "string") return undefined;
  const key = await keyFor(kid);
  if (key === undefined) return undefined;
  let valid = false;
  try {
    valid = verify(
      null,
      Buffer.from(`${encodedHeader}.${encodedPayload}`, "ascii"),
      key,
      Buffer.from(encodedSignature, "base64url"),
    );
  } catch {
    return undefined;
  }
  return valid ? Buffer.from(encodedPayload, "base64url") : undefined;
}
