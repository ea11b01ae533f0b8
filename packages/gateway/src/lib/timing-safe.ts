import { timingSafeEqual } from "node:crypto";

/**
 * Compares two strings in time independent of where they differ. Only the length can leak,
 * which is fine for the values compared this way (identifiers of a fixed format).
 */
export function timingSafeEqualString(a: string, b: string): boolean {
  const ba = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}
