import { createHash, type KeyObject } from "node:crypto";
import { verifiesWithAnyKey } from "./request-signature.js";

/** Something a failed signature shows about its cause, found without any secret. */
interface SignatureHint {
  code:
    | "signature_hex_encoded"
    | "signature_length"
    | "trailing_newline"
    | "other_version"
    | "key_mismatch";
  detail: string;
  /** key_mismatch: the partner's active keys, to compare with the signer's own. */
  registered_keys?: { fingerprint: string; bits: number }[];
}

interface HintInput {
  /** X-SIGNATURE as sent. */
  header: string;
  /** Its decoded bytes. */
  signature: Buffer;
  keys: readonly KeyObject[];
  /** The string-to-sign the gateway expected. */
  expected: string;
  /** The string-to-sign of the other signature version, when the gateway accepts it. */
  otherVersion?: { version: 1 | 2; text: string; howTo: string };
}

const bytesOf = (key: KeyObject) => (key.asymmetricKeyDetails?.modulusLength ?? 0) / 8;

/** SHA-256 of the key's SPKI DER in hex: the fingerprint the admin CLI lists keys by. */
const fingerprintOf = (key: KeyObject) =>
  createHash("sha256")
    .update(key.export({ type: "spki", format: "der" }))
    .digest("hex");

/**
 * A signature of the right size that verifies over nothing tried: the string-to-sign may differ
 * in a way no hint finds, but most often it is right and the key is another. RSA cannot tell
 * the two apart from the signature; the signer can, from the fingerprints (the SDK does).
 */
function keyMismatch(keys: readonly KeyObject[]): SignatureHint {
  const registered = keys.map((k) => ({ fingerprint: fingerprintOf(k), bits: bytesOf(k) * 8 }));
  return {
    code: "key_mismatch",
    detail: `If you signed exactly string_to_sign, the private key is not the pair of a registered public key: the partner's ${registered.length === 1 ? "key has" : "keys have"} SHA-256 fingerprint ${registered.map((k) => k.fingerprint).join(" or ")}; yours is printed by 'openssl pkey -in partner-private.pem -pubout -outform DER | openssl dgst -sha256'. Otherwise compare your string-to-sign with string_to_sign byte for byte.`,
    registered_keys: registered,
  };
}

/**
 * Why a signature that did not verify might be wrong, as far as the request shows: a length that
 * no registered key makes (hex instead of base64, another key's size), or a signature over the
 * string-to-sign plus a trailing newline, or over the other version's string; failing all that,
 * the registered keys' fingerprints (a wrong key is the usual cause). Costs at most two
 * more RSA verifications per key, spent only on failures.
 */
export async function signatureHints(input: HintInput): Promise<SignatureHint[]> {
  const sizes = [...new Set(input.keys.map(bytesOf))];
  const expectedBytes = sizes.map((b) => `${b} bytes (${b * 8}-bit key)`).join(" or ");
  const length = input.signature.length;
  if (!sizes.includes(length)) {
    if (/^[0-9a-fA-F]+$/.test(input.header) && sizes.includes(input.header.length / 2)) {
      return [
        {
          code: "signature_hex_encoded",
          detail: `X-SIGNATURE looks hex-encoded (${input.header.length} hex digits); send the signature bytes base64-encoded (openssl base64 -A, Buffer.toString("base64"), Base64.getEncoder()).`,
        },
      ];
    }
    return [
      {
        code: "signature_length",
        detail: `X-SIGNATURE decodes to ${length} bytes${[128, 256, 384, 512].includes(length) ? `, the size of a ${length * 8}-bit key's signature` : ""}; the partner's registered key makes signatures of ${expectedBytes}. Sign with the private key of a registered public key, and base64-encode the raw signature bytes.`,
      },
    ];
  }
  const hints: SignatureHint[] = [];
  if (await verifiesWithAnyKey(input.keys, `${input.expected}\n`, input.signature)) {
    hints.push({
      code: "trailing_newline",
      detail:
        "The signature verifies for string_to_sign followed by a newline: sign the string without a trailing newline (printf '%s' rather than echo).",
    });
  }
  const other = input.otherVersion;
  if (other !== undefined && (await verifiesWithAnyKey(input.keys, other.text, input.signature))) {
    hints.push({
      code: "other_version",
      detail: `The signature verifies as a signature version ${other.version} string-to-sign; ${other.howTo}`,
    });
  }
  if (hints.length === 0) hints.push(keyMismatch(input.keys));
  return hints;
}
