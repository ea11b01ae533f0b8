import { randomBytes } from "node:crypto";
import { seal, unseal } from "../../security/seal.js";

/**
 * Endpoint signing secrets: `whsec_` and 32 random bytes (base64url). The gateway must sign with
 * them, so they are sealed (AES-256-GCM), not hashed; the endpoint id is the associated data, so
 * a sealed secret copied onto another endpoint does not open.
 */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export const sealSecret = (key: Buffer, endpointId: string, secret: string): string =>
  seal(key, secret, `webhook-endpoint:${endpointId}`);

export const unsealSecret = (key: Buffer, endpointId: string, sealed: string): string =>
  unseal(key, sealed, `webhook-endpoint:${endpointId}`);
