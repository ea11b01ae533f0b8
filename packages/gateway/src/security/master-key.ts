import { hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseMasterKey } from "../config/master-key-text.js";

/**
 * The server's master secret. Keys derived from it: the pepper that keys client-secret hashes,
 * the key that encrypts JWT signing keys at rest and the one that seals webhook secrets. Taken from GATEWAY_MASTER_KEY when
 * set (what a multi-instance deployment does); otherwise read from, or generated into, a file
 * beside the embedded database (mode 0600).
 */
export interface MasterKeys {
  secretPepper: Buffer;
  keyEncryptionKey: Buffer;
  /** Seals webhook endpoints' signing secrets, which the gateway must read back to sign. */
  webhookSecretKey: Buffer;
  /** Seals tenant users' TOTP secrets, which the gateway must read back to check codes. */
  twoFactorSecretKey: Buffer;
}

/** The key GATEWAY_MASTER_KEY gave (config/ parsed it), else the one in `file`, else a new one. */
export function loadOrCreateMasterKey(
  fromSetting: Buffer | undefined,
  file: string,
  create = true,
): Buffer {
  if (fromSetting !== undefined) return fromSetting;
  if (existsSync(file)) return parseMasterKey(readFileSync(file, "utf8"));
  if (!create) {
    // A new key could not open what the store holds (sealed signing keys, secret hashes).
    throw new Error(
      `No master key: GATEWAY_MASTER_KEY is unset and ${file} does not exist. Set GATEWAY_MASTER_KEY or GATEWAY_DATA_DIR to the key this store was created with.`,
    );
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // "wx" refuses to overwrite a file another process created a moment ago.
  try {
    writeFileSync(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return parseMasterKey(readFileSync(file, "utf8"));
    throw error;
  }
  return key;
}

export function deriveMasterKeys(master: Buffer): MasterKeys {
  const derive = (info: string) =>
    Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), info, 32));
  return {
    secretPepper: derive("orderline/client-secret-pepper/v1"),
    keyEncryptionKey: derive("orderline/signing-key-encryption/v1"),
    webhookSecretKey: derive("orderline/webhook-secret-encryption/v1"),
    twoFactorSecretKey: derive("orderline/two-factor-secret-encryption/v1"),
  };
}
