/**
 * What GATEWAY_MASTER_KEY (or the key file beside the embedded database) may hold: at least 32
 * bytes as hex or base64. Configuration parses the setting with it, so a bad key fails before
 * anything opens; security/master-key.ts reads the key file with it.
 */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const bytes =
    /^[0-9a-f]+$/i.test(trimmed) && trimmed.length % 2 === 0
      ? Buffer.from(trimmed, "hex")
      : Buffer.from(trimmed, "base64");
  if (bytes.length < 32) {
    throw new Error(
      "The master key must hold at least 32 bytes (64 hex digits or 44 base64 characters).",
    );
  }
  return bytes;
}
