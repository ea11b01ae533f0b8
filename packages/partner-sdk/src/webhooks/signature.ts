import { createHmac } from "node:crypto";

/**
 * HMAC-SHA256 keyed by the endpoint secret (its UTF-8 bytes, `whsec_` included) over
 * `<t>.<raw body>`: the contract's `v1` scheme, as raw bytes.
 */
export function v1Signature(secret: string, timestamp: string, payload: Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(payload).digest();
}

/** The exact body bytes: a string is taken as UTF-8. */
export function payloadBytes(payload: string | Uint8Array): Uint8Array {
  if (typeof payload === "string") return Buffer.from(payload, "utf8");
  if (payload instanceof Uint8Array) return payload;
  throw new TypeError(
    "payload must be the raw body as received (a string, Buffer or Uint8Array), not parsed JSON: " +
      "re-serialising an object changes the bytes the signature covers",
  );
}

/** `secret` or `secrets`, as a non-empty list of non-empty strings. */
export function secretsOf(options: { secret?: string; secrets?: readonly string[] }): string[] {
  const list = [
    ...(options.secret === undefined ? [] : [options.secret]),
    ...(options.secrets ?? []),
  ];
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s === "")) {
    throw new TypeError(
      "give the endpoint's secret (secret) or secrets during a rotation (secrets)",
    );
  }
  return list;
}
