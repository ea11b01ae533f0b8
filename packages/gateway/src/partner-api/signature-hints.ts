import type { KeyObject } from "node:crypto";
import { verifiesWithAnyKey } from "./request-signature.js";

/** Something a failed signature shows about its cause, found without any secret. */
export interface SignatureHint {
  code: "signature_hex_encoded" | "signature_length" | "trailing_newline" | "other_version";
  detail: string;
}

export interface HintInput {
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

/**
 * Why a signature that did not verify might be wrong, as far as the request shows: a length that
 * no registered key makes (hex instead of base64, another key's size), or a signature over the
 * string-to-sign plus a trailing newline, or over the other version's string. Costs at most two
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
  return hints;
}
