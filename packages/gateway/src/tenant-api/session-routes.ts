import type { FastifyInstance } from "fastify";
import { DISPLAY_NAME_SCHEMA } from "../domain/users/display-name.js";
import type { TeamService } from "../domain/users/team.js";
import type { TwoFactorService } from "../domain/users/two-factor.js";
import { unsupportedLanguage } from "../domain/vocabulary/service.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { REFRESH_BODY, tokenResponse } from "../http/token-schemas.js";
import { addressBucket } from "../lib/address-bucket.js";
import type { Clock } from "../lib/clock.js";
import { supportedLanguage } from "../lib/languages.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import { SECOND_FACTOR_BODY, SIGN_IN_BODY } from "./console-session-routes.js";
import { NO_QUERY, requireUser, USER_SECURITY, userOf } from "./guard.js";
import {
  assertNoSecondFactorDue,
  passSecondFactor,
  type SecondFactorBody,
} from "./second-factor.js";
import type { UserSessionService } from "./sessions.js";
import { renameMember } from "./team-routes.js";
import { proofOf } from "./two-factor-routes.js";

const TOKEN_RESPONSE = tokenResponse("JWT (EdDSA) for the tenant API; carries user and tenant");

const PROFILE_RESPONSE = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "object",
      required: ["id", "name", "email", "role", "language", "tenant", "supported_languages"],
      properties: {
        id: { type: "string" },
        name: {
          type: ["string", "null"],
          description: "Your display name; null when none is set (you are shown by your email)",
        },
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
  minProperties: 1,
  additionalProperties: false,
  properties: {
    language: { type: "string", minLength: 1, maxLength: 35 },
    name: DISPLAY_NAME_SCHEMA,
  },
} as const;

interface UserAuthRoutesOptions {
  sessions: UserSessionService;
  twoFactor: TwoFactorService;
  users: TenantStore;
  /** Sign-in attempts per source address. */
  rateLimiter?: ClientRateLimiter;
  /**
   * The sign-in's own deadline (ms; the app's request timeout when absent). A password check
   * that has begun is CPU work, not a store that hangs: on a machine whose cores are busy it may
   * run past the deadline other requests get, and answering 503 then would throw it away.
   */
  signInTimeoutMs?: number;
}

/** POST /v1/auth/login and /v1/auth/refresh: tenant users' tokens. */
export async function userAuthRoutes(
  app: FastifyInstance,
  { sessions, twoFactor, users, rateLimiter, signInTimeoutMs }: UserAuthRoutesOptions,
): Promise<void> {
  app.post<{ Body: { email: string; password: string } }>(
    "/v1/auth/login",
    {
      ...(signInTimeoutMs === undefined ? {} : { config: { deadlineMs: signInTimeoutMs } }),
      schema: {
        tags: ["Tenant users"],
        summary: "Sign a tenant user in with email and password",
        description:
          "An unknown email and a wrong password get the same 401 invalid_credentials. After 5 failed " +
          "sign-ins for one email from one source address, each further failure locks that email for that " +
          "address for 2, 4, 8 … seconds (at most 15 min): 429 login_throttled with Retry-After; other " +
          "addresses are not affected. Sign-ins per source address are rate limited (429 rate_limited); " +
          "when too many passwords are being checked at once, 503 login_busy with Retry-After. A " +
          "user with two-step sign-in gets 401 second_factor_required with a `challenge` for " +
          "POST /v1/auth/login/second-factor.",
        security: [],
        querystring: NO_QUERY,
        body: SIGN_IN_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const source = addressBucket(request.ip);
      await rateLimiter?.check("login", source, request.log, "from this address");
      const user = await sessions.checkPassword(
        request.body.email,
        request.body.password,
        source,
        request.log,
      );
      await assertNoSecondFactorDue(twoFactor, user, "token", "POST /v1/auth/login/second-factor");
      const { token, expired_at } = await sessions.issue(user, request.log);
      return { token, expired_at };
    },
  );

  app.post<{ Body: SecondFactorBody }>(
    "/v1/auth/login/second-factor",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Second step of a token sign-in: the challenge and a code issue the token",
        description:
          "For a user with two-step sign-in, POST /v1/auth/login answers 401 " +
          "second_factor_required with `challenge`; this call, with it and a current `code` or a " +
          "`recovery_code`, answers the token. Same rules as POST /v1/auth/session/second-factor.",
        security: [],
        querystring: NO_QUERY,
        body: SECOND_FACTOR_BODY,
        response: { 200: TOKEN_RESPONSE, ...problemResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      await rateLimiter?.check(
        "login",
        addressBucket(request.ip),
        request.log,
        "from this address",
      );
      const proof = proofOf(request.body);
      const user = await passSecondFactor(request, twoFactor, users, "token", proof);
      const { token, expired_at } = await sessions.issue(user, request.log);
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

interface ProfileRoutesOptions {
  authenticator: UserAuthenticator;
  store: TenantStore;
  /** Names the user (checked and audited as an admin's renaming is). */
  team: TeamService;
  languages: readonly string[];
  now: Clock;
}

/** GET and PATCH /v1/user/profile: the signed-in user's own profile. */
export async function profileRoutes(
  app: FastifyInstance,
  { authenticator, store, team, languages, now }: ProfileRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);
  const profileOf = ({ user, tenant }: UserContext) => ({
    data: {
      id: user.id,
      name: user.displayName ?? null,
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
      // Read by the console before anything else, also by a user who must set up two-step
      // sign-in first.
      config: { beforeTwoFactor: true },
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

  app.patch<{ Body: { language?: string; name?: string | null } }>(
    "/v1/user/profile",
    {
      // The language switcher works on the set-up page too.
      config: { beforeTwoFactor: true },
      schema: {
        tags: ["Tenant users"],
        summary: "Change the signed-in user's language or display name",
        description:
          "The language must be one of the supported BCP 47 tags (matched case-insensitively, answered in the " +
          "list's spelling); otherwise 422 language_unsupported with `supported_languages`. The name is " +
          "at most 200 characters after trimming (null or empty removes it; 400 validation_failed with " +
          "`errors[].pointer` /name otherwise); a changed name is audited (user_renamed).",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: PROFILE_BODY,
        response: { 200: PROFILE_RESPONSE, ...problemResponses(400, 401, 413, 415, 422) },
      },
    },
    async (request) => {
      const context = userOf(request);
      const { language: asked, name } = request.body;
      const language =
        asked === undefined ? context.user.language : supportedLanguage(asked, languages);
      if (language === undefined) throw unsupportedLanguage(asked ?? "", languages);
      const at = now();
      // The name first: a refused name changes nothing, the language included.
      const renamed =
        name === undefined
          ? undefined
          : await renameMember(team, request, context, context.user.id, name);
      if (asked !== undefined) {
        await store.setUserLanguage(context.user.id, language, at);
        request.log.info(
          { event: "profile_language", user_id: context.user.id, language },
          "profile updated",
        );
      }
      const displayName = renamed ? renamed.name : context.user.displayName;
      return profileOf({
        ...context,
        user: { ...context.user, language, displayName, updatedAt: at },
      });
    },
  );
}
