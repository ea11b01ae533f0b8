import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

export interface RsaKeys {
  publicPem: string;
  privateKey: KeyObject;
  privatePem: string;
}

/**
 * Test-only RSA key pairs generated once (rsa-test-keys.json beside this file, private keys in
 * PKCS#8 PEM by size; JSON because `*.pem` is ignored by git): a 2048-bit pair costs ~150 ms of
 * CPU to generate and 3072 bits ~600 ms, and the tests asked for about a hundred per run.
 */
const FIXED_KEYS: Record<string, string[]> = JSON.parse(
  readFileSync(new URL("./rsa-test-keys.json", import.meta.url), "utf8"),
);

/** Fixed test pair number `n` (from 0) of `bits`, or undefined past the last. */
export function fixedRsaKeys(n: number, bits = 2048): RsaKeys | undefined {
  const pem = FIXED_KEYS[bits]?.[n];
  return pem === undefined ? undefined : keysOf(createPrivateKey(pem));
}

/** A pair's PEM forms from its private key. */
export function keysOf(privateKey: KeyObject): RsaKeys {
  return {
    publicPem: createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString(),
    privateKey,
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}
