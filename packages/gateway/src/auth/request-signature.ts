import { type KeyObject, verify } from "node:crypto";

/**
 * The seed's request signature: X-SIGNATURE = base64(SHA256withRSA(private key,
 * client_id + "|" + X-TIMESTAMP)), with the timestamp exactly as sent in the header.
 */
export function stringToSign(clientId: string, timestampHeader: string): string {
  return `${clientId}|${timestampHeader}`;
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
 * Whether the signature verifies against any of the keys (RSASSA-PKCS1-v1_5 with SHA-256).
 * The callback form of crypto.verify runs on libuv's thread pool, so the RSA work (the largest
 * single cost of a signed request) does not occupy the thread that serves HTTP.
 */
export async function verifiesWithAnyKey(
  keys: readonly KeyObject[],
  data: string,
  signature: Buffer,
): Promise<boolean> {
  const bytes = Buffer.from(data, "utf8");
  for (const key of keys) {
    const ok = await new Promise<boolean>((resolve) =>
      verify("sha256", bytes, key, signature, (error, result) => resolve(!error && result)),
    );
    if (ok) return true;
  }
  return false;
}
