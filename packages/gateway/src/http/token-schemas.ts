/** The token answer and refresh body shared by the partner and the tenant API. */

export function tokenResponse(tokenDescription: string) {
  return {
    type: "object",
    required: ["token", "expired_at"],
    properties: {
      token: { type: "string", description: tokenDescription },
      expired_at: { type: "integer", description: "Expiry as Unix seconds, 12 hours after issue" },
    },
  } as const;
}

export const REFRESH_BODY = {
  type: "object",
  required: ["token"],
  additionalProperties: false,
  properties: { token: { type: "string", minLength: 1, maxLength: 4096 } },
} as const;

/** The partner token endpoints' answer (login and refresh). */
export const TOKEN_RESPONSE = tokenResponse("JWT access token (EdDSA); embeds the client_id");
