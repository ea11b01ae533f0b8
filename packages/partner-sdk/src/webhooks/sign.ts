import { payloadBytes, secretsOf, v1Signature } from "./signature.js";

export interface SignWebhookOptions {
  /** The exact body bytes that will be sent. */
  payload: string | Uint8Array;
  /** One secret, or several (one `v1=` each, as the gateway sends during a rotation). */
  secret?: string;
  secrets?: readonly string[];
  /** Unix seconds (default: now). */
  timestamp?: number;
}

/**
 * An `Orderline-Signature` header value, `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, signed as the
 * gateway signs deliveries: for testing a receiver with a delivery of one's own making.
 */
export function signWebhook(options: SignWebhookOptions): string {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("timestamp must be whole Unix seconds");
  }
  const t = String(timestamp);
  const body = payloadBytes(options.payload);
  const signatures = secretsOf(options).map((s) => `v1=${v1Signature(s, t, body).toString("hex")}`);
  return [`t=${t}`, ...signatures].join(",");
}
