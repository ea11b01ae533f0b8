import type { PartnerDirectory } from "../domain/partners/directory.js";
import type { Clock } from "../lib/clock.js";
import { timingSafeEqualString } from "../lib/timing-safe.js";
import { ApiError } from "../problems/api-error.js";
import { assertFreshTimestamp, type HeaderBag, signedHeadersOf, single } from "./authenticate.js";
import { decodeSignature, stringToSign, verifiesWithAnyKey } from "./request-signature.js";

/** Whether a login request carries any of the signature headers: then it must carry a proof. */
function offersLoginProof(headers: HeaderBag): boolean {
  return ["x-client-id", "x-timestamp", "x-signature"].some(
    (h) => single(headers, h) !== undefined,
  );
}

/**
 * Checks a partner login's proof of possession: the seed's signature headers, as on orders
 * (X-SIGNATURE = SHA256withRSA over `client_id|X-TIMESTAMP`, X-TIMESTAMP within the allowed
 * skew), by an active key of the partner named in the body. Returns true for a valid proof,
 * false when the login sends none; throws 401 (header_missing, client_id_mismatch,
 * timestamp_…, signature_invalid) for a proof that fails, without looking at the secret, so a
 * failed proof counts as no guess. An unknown client_id fails like a bad signature.
 */
export async function verifyLoginProof(
  headers: HeaderBag,
  clientId: string,
  directory: PartnerDirectory,
  maxSkewSeconds: number,
  now: Clock,
): Promise<boolean> {
  if (!offersLoginProof(headers)) return false;
  const sent = signedHeadersOf(headers);
  if (!timingSafeEqualString(sent.clientId, clientId)) {
    throw new ApiError("client_id_mismatch", "X-CLIENT-ID must equal the client_id in the body.");
  }
  assertFreshTimestamp(sent.timestamp, now(), maxSkewSeconds);
  const expected = stringToSign(clientId, sent.timestamp);
  const signature = decodeSignature(sent.signature);
  if (signature === undefined) {
    throw new ApiError(
      "signature_malformed",
      "X-SIGNATURE must be the base64 encoding of the RSA signature.",
      { signature_version: 1, string_to_sign: expected },
    );
  }
  const keys = (await directory.get(clientId))?.activeKeys.map((k) => k.keyObject) ?? [];
  if (
    !(await verifiesWithAnyKey(keys, expected, signature, { remember: { header: sent.signature } }))
  ) {
    throw new ApiError(
      "signature_invalid",
      "X-SIGNATURE is not a SHA256withRSA signature of string_to_sign by an active key of this partner; a login signs client_id|X-TIMESTAMP (signature version 1) whatever the partner's version.",
      { signature_version: 1, string_to_sign: expected },
    );
  }
  return true;
}
