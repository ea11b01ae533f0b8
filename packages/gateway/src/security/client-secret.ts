import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Client secrets are 256-bit random strings, so a fast keyed hash is enough: HMAC-SHA256 with a
 * server-side pepper (derived from the master key). A slow KDF only helps against guessing
 * low-entropy passwords, which these are not, and would cost a millisecond per login.
 */
export function generateClientId(): string {
  return `olc_${randomBytes(12).toString("hex")}`;
}

const CLIENT_ID_SHAPE = /^olc_[0-9a-f]{24}$/;

/**
 * A client_id as a log line may show it: whole when it has the shape of one (it is public, it
 * travels in every request), else only its first four characters and its length. A partner who
 * pastes the client_secret into the client_id field must not find the secret in our logs.
 */
export function loggableClientId(raw: string): string {
  return CLIENT_ID_SHAPE.test(raw) ? raw : `${raw.slice(0, 4)}…(${raw.length} chars)`;
}

export function generateClientSecret(): string {
  return `ols_${randomBytes(32).toString("base64url")}`;
}

export function hashClientSecret(pepper: Buffer, secret: string): string {
  return `hmac-sha256:${createHmac("sha256", pepper).update(secret, "utf8").digest("base64url")}`;
}

/** Timing-safe; a stored hash of an unknown format never matches. */
export function verifyClientSecret(pepper: Buffer, secret: string, storedHash: string): boolean {
  const candidate = Buffer.from(hashClientSecret(pepper, secret));
  const stored = Buffer.from(storedHash);
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}
