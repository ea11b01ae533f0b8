import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** AES-256-GCM with associated data, serialised as `v1.<iv>.<ciphertext>.<tag>` (base64url). */
export function seal(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString("base64url"));
  return `v1.${parts.join(".")}`;
}

export function unseal(key: Buffer, sealed: string, associatedData: string): string {
  const [version, iv, ciphertext, tag] = sealed.split(".");
  if (version !== "v1" || iv === undefined || ciphertext === undefined || tag === undefined) {
    throw new Error("Unknown sealed value format");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(associatedData, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([
    decipher.update(Buffer.from(ciphertext, "base64url")),
    decipher.final(),
  ]).toString("utf8");
}
