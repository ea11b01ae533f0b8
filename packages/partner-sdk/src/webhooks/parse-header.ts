import { WebhookSignatureError } from "../errors.js";

interface SignatureHeader {
  /** Unix seconds, as sent. */
  timestamp: string;
  /** The decoded `v1` signatures (32 bytes each). */
  signatures: Buffer[];
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

function malformed(detail: string): WebhookSignatureError {
  return new WebhookSignatureError(
    "header_malformed",
    `Orderline-Signature is malformed: ${detail}`,
  );
}

/**
 * `t=<digits>,v1=<hex>[,v1=<hex>…]`. Entries of other schemes are skipped, so a receiver keeps
 * working when a future scheme is sent beside `v1`.
 */
export function parseSignatureHeader(header: string | null | undefined): SignatureHeader {
  if (header === undefined || header === null || header.trim() === "") {
    throw new WebhookSignatureError("header_missing", "The Orderline-Signature header is missing.");
  }
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const entry of header.split(",")) {
    const at = entry.indexOf("=");
    if (at <= 0) throw malformed(`'${entry.trim().slice(0, 40)}' is not key=value`);
    const key = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (key === "t") {
      if (timestamp !== undefined) throw malformed("more than one t=");
      if (!/^\d{1,12}$/.test(value)) throw malformed("t= must be Unix seconds");
      timestamp = value;
    } else if (key === "v1") {
      if (!HEX_SHA256.test(value)) throw malformed("v1= must be 64 hexadecimal digits");
      signatures.push(Buffer.from(value, "hex"));
    }
  }
  if (timestamp === undefined) throw malformed("no t= timestamp");
  if (signatures.length === 0) throw malformed("no v1= signature");
  return { timestamp, signatures };
}
