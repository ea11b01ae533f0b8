import type { FastifyInstance } from "fastify";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { REFRESH_BODY, TOKEN_RESPONSE } from "../http/token-schemas.js";
import { addressBucket } from "../lib/address-bucket.js";
import type { SigningKeyRing } from "../security/signing-keys.js";
import type { HeaderBag } from "./authenticate.js";
import type { SessionService } from "./sessions.js";

const JWKS_RESPONSE = {
  description: "The JSON Web Key Set (RFC 7517) of the keys that sign tokens now or soon",
  type: "object",
  required: ["keys"],
  properties: {
    keys: {
      type: "array",
      items: {
        type: "object",
        required: ["kty", "kid"],
        // Each key is a JWK as published; unknown members pass through.
        additionalProperties: true,
        properties: {
          kty: { type: "string" },
          crv: { type: "string" },
          x: { type: "string" },
          kid: { type: "string" },
          alg: { type: "string" },
          use: { type: "string" },
        },
      },
    },
  },
} as const;

const LOGIN_BODY = {
  type: "object",
  required: ["client_id", "client_secret"],
  additionalProperties: false,
  properties: {
    client_id: { type: "string", minLength: 1, maxLength: 128 },
    client_secret: { type: "string", minLength: 1, maxLength: 256 },
  },
} as const;

interface AuthRoutesOptions {
  sessions: SessionService;
  signingKeys: SigningKeyRing;
  /** Login attempts per source address. */
  rateLimiter?: ClientRateLimiter;
  /** Cache-Control max-age of the JWKS (GATEWAY_JWKS_MAX_AGE_SECONDS). */
  jwksMaxAgeSeconds: number;
  /** Whether a login proves the partner's key (login-proof.ts); absent: no login is proven. */
  proveLogin?: (headers: HeaderBag, clientId: string) => Promise<boolean>;
}

/** Login, refresh and the JWKS. Login and refresh carry no security scheme, as the seed says. */
export async function authRoutes(
  app: FastifyInstance,
  { sessions, signingKeys, rateLimiter, jwksMaxAgeSeconds, proveLogin }: AuthRoutesOptions,
): Promise<void> {
  app.post<{ Body: { client_id: string; client_secret: string } }>(
    "/api/v1/auth/login",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Generate a JWT with client credentials",
        description:
          "Optionally signed like an order request (X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE over client_id|X-TIMESTAMP): " +
          "a signed login is throttled only by failures of logins that were signed too. Failed unsigned logins are " +
          "counted per client_id and source address: after 5, each further failure from that address locks it for " +
          "2, 4, 8 … s (at most 15 min), 429 login_throttled with Retry-After; an address without failures is never " +
          "locked. Logins (right or wrong) per source address are rate limited (429 rate_limited).",
        security: [],
        body: LOGIN_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => {
      const source = addressBucket(request.ip);
      await rateLimiter?.check("login", source, request.log, "from this address");
      const proven = (await proveLogin?.(request.headers, request.body.client_id)) ?? false;
      const { token, expired_at } = await sessions.login(
        request.body.client_id,
        request.body.client_secret,
        source,
        request.log,
        proven,
      );
      return { token, expired_at };
    },
  );

  app.post<{ Body: { token: string } }>(
    "/api/v1/auth/refresh",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Refresh a JWT",
        description:
          "Returns a new token for a valid or recently expired one (grace window, default 24 h). Each token " +
          "refreshes once: a second refresh is refused (refresh_token_reused) and revokes every token of that " +
          "login (session_revoked afterwards). A session can be extended for at most 30 days after login.",
        security: [],
        body: REFRESH_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const { token, expired_at } = await sessions.refresh(request.body.token, request.log);
      return { token, expired_at };
    },
  );

  app.get(
    "/.well-known/jwks.json",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Public keys that verify the gateway's tokens",
        security: [],
        response: { 200: JWKS_RESPONSE, ...problemResponses(431) },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", `public, max-age=${jwksMaxAgeSeconds}`);
      return signingKeys.jwks();
    },
  );
}
