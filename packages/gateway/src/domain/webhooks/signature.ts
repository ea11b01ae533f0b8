import { createHmac } from "node:crypto";

/**
 * The `Orderline-Signature` header of a delivery: `t=<unix seconds>` and one `v1=<hex>` per
 * signing secret (two during a rotation's grace period), each HMAC-SHA256 keyed with the
 * secret's UTF-8 bytes over `<t>.<raw body>`. Receivers accept when any v1 matches and t is
 * within their replay window (docs/gateway/api.md, "Verifying a delivery").
 */
export function signatureHeader(
  secrets: readonly string[],
  unixSeconds: number,
  body: string,
): string {
  const signed = `${unixSeconds}.${body}`;
  const v1 = secrets.map(
    (secret) =>
      `v1=${createHmac("sha256", Buffer.from(secret, "utf8")).update(signed, "utf8").digest("hex")}`,
  );
  return [`t=${unixSeconds}`, ...v1].join(",");
}
