import { randomBytes, randomUUID } from "node:crypto";

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then randomness. Time-ordered, so
 * new rows append to the end of their index instead of touching random pages. The random part
 * comes from randomUUID, which draws from Node's buffered entropy pool (no call per id).
 */
export function newId(now = Date.now()): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx, V already the RFC variant
  const time = now.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** 128 bits of randomness, URL-safe; used for JWT ids. */
export function randomToken(bytes = 16): string {
  return randomBytes(bytes).toString("base64url");
}
