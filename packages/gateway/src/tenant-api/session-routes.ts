import type { FastifyInstance } from "fastify";
import { unsupportedLanguage } from "../domain/vocabulary/service.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { addressBucket } from "../http/source-address.js";
import { REFRESH_BODY, tokenResponse } from "../http/token-schemas.js";
import type { Clock } from "../lib/clock.js";
import { INPUT_LIMITS } from "../lib/input-limits.js";
import { supportedLanguage } from "../lib/languages.js";
import { PASSWORD_MAX_LENGTH } from "../security/passwords.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import { NO_QUERY, requireUser, USER_SECURITY, userOf } from "./guard.js";
import type { UserSessionService } from "./sessions.js";

const TOKEN_RESPONSE = tokenResponse("JWT (EdDSA) for the tenant API; carries user and tenant");

const LOGIN_BODY = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: {
    email: { type: "string", minLength: 3, maxLength: INPUT_LIMITS.email },
    password: { type: "string", minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
  },
} as const;

const PROFILE_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "object",
      required: ["id", "email", "role", "language", "tenant", "supported_languages"],
      properties: {
        id: { type: "string" },
        email: { type: "string" },
        role: { type: "string", enum: ["admin", "member"] },
        language: { type: "string", description: "BCP 47 tag; the tenant vocabulary's default" },
        tenant: {
          type: "object",
          required: ["id", "name"],
          properties: { id: { type: "string" }, name: { type: "string" } },
        },
        supported_languages: { type: "array", items: { type: "string" } },
      },
    },
  },
} as const;

const PROFILE_BODY = {
  type: "object",
  required: ["language"],
  additionalProperties: false,
  properties: { language: { type: "string", minLength: 1, maxLength: 35 } },
} as const;

export interface UserAuthRoutesOptions {
  sessions: UserSessionService;
  /** Sign-in attempts per source address. */
  rateLimiter?: ClientRateLimiter;
}

/** POST /v1/auth/login and /v1/auth/refresh: tenant users' tokens. */
export async function userAuthRoutes(
  app: FastifyInstance,
  { sessions, rateLimiter }: UserAuthRoutesOptions,
): Promise<void> {
  app.post<{ Body: { email: string; password: string } }>(
    "/v1/auth/login",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Sign a tenant user in with email and password",
        description:
          "An unknown email and a wrong password get the same 401 invalid_credentials. After 5 failed " +
          "sign-ins for one email from one source address, each further failure locks that email for that " +
          "address for 2, 4, 8 … seconds (at most 15 min): 429 login_throttled with Retry-After; other " +
          "addresses are not affected. Sign-ins per source address are rate limited (429 rate_limited); " +
          "when too many passwords are being checked at once, 503 login_busy with Retry-After.",
        security: [],
        querystring: NO_QUERY,
        body: LOGIN_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const source = addressBucket(request.ip);
      await rateLimiter?.check("login", source, request.log, "from this address");
      const { token, expired_at } = await sessions.login(
        request.body.email,
        request.body.password,
        source,
        request.log,
      );
      return { token, expired_at };
    },
  );

  app.post<{ Body: { token: string } }>(
    "/v1/auth/refresh",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Refresh a tenant user's token",
        description:
          "The partner tokens' rules: a valid or recently expired token (grace window, default 24 h), each " +
          "token once (a second refresh revokes every token of that sign-in), a session extended for at most " +
          "30 days after sign-in. Partner tokens are refused.",
        security: [],
        querystring: NO_QUERY,
        body: REFRESH_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 413, 415) },
      },
    },
    async (request) => {
      const { token, expired_at } = await sessions.refresh(request.body.token, request.log);
      return { token, expired_at };
    },
  );
}

export interface ProfileRoutesOptions {
  authenticator: UserAuthenticator;
  store: TenantStore;
  languages: readonly string[];
  now: Clock;
}

/** GET and PATCH /v1/user/profile: the signed-in user's own profile. */
export async function profileRoutes(
  app: FastifyInstance,
  { authenticator, store, languages, now }: ProfileRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);
  const profileOf = ({ user, tenant }: UserContext) => ({
    data: {
      id: user.id,
      email: user.email,
      role: user.role,
      language: user.language,
      tenant: { id: tenant.id, name: tenant.name },
      supported_languages: languages,
    },
  });

  app.get(
    "/v1/user/profile",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "The signed-in user's profile",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: { 200: PROFILE_RESPONSE, ...problemResponses(400, 401) },
      },
    },
    async (request) => profileOf(userOf(request)),
  );

  app.patch<{ Body: { language: string } }>(
    "/v1/user/profile",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Change the signed-in user's language",
        description:
          "The language must be one of the supported BCP 47 tags (matched case-insensitively, answered in the " +
          "list's spelling); otherwise 422 language_unsupported with `supported_languages`.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: PROFILE_BODY,
        response: { 200: PROFILE_RESPONSE, ...problemResponses(400, 401, 413, 415, 422) },
      },
    },
    async (request) => {
      const context = userOf(request);
      const language = supportedLanguage(request.body.language, languages);
      if (language === undefined) throw unsupportedLanguage(request.body.language, languages);
      const at = now();
      await store.setUserLanguage(context.user.id, language, at);
      request.log.info(
        { event: "profile_language", user_id: context.user.id, language },
        "profile updated",
      );
      return profileOf({ ...context, user: { ...context.user, language, updatedAt: at } });
    },
  );
}
