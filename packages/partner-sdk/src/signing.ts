import { createHash, createPrivateKey, type KeyObject, sign } from "node:crypto";

/** The signature schemes the gateway knows; see docs/gateway/api.md "Signing requests". */
export type SignatureVersion = 1 | 2;

/** Version 1, the seed's: `client_id|timestamp`. It covers neither the body nor the path. */
export function stringToSignV1(clientId: string, timestamp: string): string {
  return `${clientId}|${timestamp}`;
}

/** Lowercase hex SHA-256 of the exact body bytes (of nothing, for a request without a body). */
export function bodyDigest(body: string | Uint8Array = ""): string {
  return createHash("sha256").update(body).digest("hex");
}

export interface SignedMessage {
  clientId: string;
  timestamp: string;
  /** HTTP method, any case (it is signed upper-case). */
  method: string;
  /** Path and query exactly as sent, e.g. `/api/v1/sales-orders?limit=20`. */
  target: string;
  /** The exact body bytes; omitted or empty for a request without a body. */
  body?: string | Uint8Array;
}

/**
 * Version 2: six lines joined by "\n", no trailing newline —
 * `v2`, client_id, X-TIMESTAMP, METHOD, path with query, hex SHA-256 of the body.
 */
export function stringToSignV2(message: SignedMessage): string {
  return [
    "v2",
    message.clientId,
    message.timestamp,
    message.method.toUpperCase(),
    message.target,
    bodyDigest(message.body),
  ].join("\n");
}

export function stringToSign(version: SignatureVersion, message: SignedMessage): string {
  return version === 2
    ? stringToSignV2(message)
    : stringToSignV1(message.clientId, message.timestamp);
}

/** A private key from PKCS#8 or PKCS#1 PEM text, or a KeyObject as is. */
export function privateKeyOf(key: string | KeyObject): KeyObject {
  return typeof key === "string" ? createPrivateKey(key) : key;
}

/** base64(SHA256withRSA(privateKey, text)): the X-SIGNATURE value. */
export function signText(privateKey: KeyObject, text: string): string {
  return sign("sha256", Buffer.from(text, "utf8"), privateKey).toString("base64");
}

/**
 * The signature headers of one request: X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE, and for version
 * 2 X-SIGNATURE-VERSION. Returns the string-to-sign too, for debugging.
 */
export function signatureHeaders(
  privateKey: KeyObject,
  version: SignatureVersion,
  message: SignedMessage,
): { headers: Record<string, string>; stringToSign: string } {
  const text = stringToSign(version, message);
  const headers: Record<string, string> = {
    "x-client-id": message.clientId,
    "x-timestamp": message.timestamp,
    "x-signature": signText(privateKey, text),
  };
  if (version === 2) headers["x-signature-version"] = "2";
  return { headers, stringToSign: text };
}
