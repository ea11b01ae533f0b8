import { createHash, createPublicKey, type KeyObject } from "node:crypto";

const MIN_RSA_BITS = 2048;

export class PublicKeyError extends Error {
  override name = "PublicKeyError";
}

export interface ParsedPublicKey {
  /** The key re-encoded as X.509 SubjectPublicKeyInfo PEM. */
  pem: string;
  bits: number;
  /** SHA-256 of the DER SubjectPublicKeyInfo, hex. */
  fingerprint: string;
  keyObject: KeyObject;
}

const CONVERT_HINT =
  "Convert it with: openssl rsa -RSAPublicKey_in -in key.pem -pubout -out key.spki.pem " +
  "(or export the public key with: openssl rsa -in private.pem -pubout).";

/**
 * Checks a partner's public key as the seed asks: X.509 SubjectPublicKeyInfo PEM
 * (`-----BEGIN PUBLIC KEY-----`), RSA, at least 2048 bits.
 */
export function parsePartnerPublicKey(text: string): ParsedPublicKey {
  const trimmed = text.trim();
  if (trimmed.includes("-----BEGIN RSA PUBLIC KEY-----")) {
    throw new PublicKeyError(
      `This is a PKCS#1 'RSA PUBLIC KEY' block; the gateway needs an X.509 SubjectPublicKeyInfo 'PUBLIC KEY' block. ${CONVERT_HINT}`,
    );
  }
  if (/-----BEGIN (TRUSTED |X509 |)CERTIFICATE-----/.test(trimmed)) {
    throw new PublicKeyError(
      "This is a certificate, not a public key. Extract its public key with: openssl x509 -in cert.pem -pubkey -noout > key.pem",
    );
  }
  if (/-----BEGIN (RSA |ENCRYPTED |)PRIVATE KEY-----/.test(trimmed)) {
    throw new PublicKeyError(
      "This is a private key. Never share it: send only the public key (openssl rsa -in private.pem -pubout).",
    );
  }
  const blocks = trimmed.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g);
  if (blocks === null || blocks.length !== 1) {
    throw new PublicKeyError(
      "Expected exactly one PEM block labelled 'PUBLIC KEY' (X.509 SubjectPublicKeyInfo).",
    );
  }
  let keyObject: KeyObject;
  try {
    keyObject = createPublicKey({ key: blocks[0] as string, format: "pem" });
  } catch {
    throw new PublicKeyError(
      "The PUBLIC KEY block could not be parsed as an X.509 SubjectPublicKeyInfo key.",
    );
  }
  if (keyObject.asymmetricKeyType !== "rsa") {
    throw new PublicKeyError(
      `Expected an RSA key, got ${keyObject.asymmetricKeyType ?? "an unknown key type"}.`,
    );
  }
  const bits = keyObject.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) {
    throw new PublicKeyError(
      `The RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`,
    );
  }
  const der = keyObject.export({ type: "spki", format: "der" });
  return {
    pem: keyObject.export({ type: "spki", format: "pem" }).toString(),
    bits,
    fingerprint: createHash("sha256").update(der).digest("hex"),
    keyObject,
  };
}
