import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TwoFactorService } from "../domain/users/two-factor.js";
import { cookieOf } from "../http/cookies.js";
import { single } from "../http/headers.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { addressBucket } from "../lib/address-bucket.js";
import { INPUT_LIMITS } from "../lib/input-limits.js";
import { PASSWORD_MAX_LENGTH } from "../security/passwords.js";
import type { TenantStore, UserRecord } from "../store/tenant-store.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { NO_QUERY } from "./guard.js";
import {
  assertNoSecondFactorDue,
  passSecondFactor,
  type SecondFactorBody,
} from "./second-factor.js";
import { clearedSessionCookie, SESSION_COOKIE, sessionCookie } from "./session-cookie.js";
import type { UserSessionService } from "./sessions.js";
import { ONE_PROOF, PROOF_PROPERTIES, proofOf } from "./two-factor-routes.js";

/** Email and password: the console's sign-in and the tenant API's login take the same body. */
export const SIGN_IN_BODY = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: {
    email: { type: "string", minLength: 3, maxLength: INPUT_LIMITS.email },
    password: { type: "string", minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
  },
} as const;

const SESSION_ANSWER = {
  type: "object",
  required: ["data"],
  properties: {
    data: {
      type: "object",
      required: ["id", "expires_at"],
      properties: {
        id: { type: "string", description: "The session's id (what admins see), not its secret" },
        expires_at: {
          type: "string",
          format: "date-time",
          description: "The latest end; 12 h without a request ends it sooner",
        },
      },
    },
  },
} as const;

export const SECOND_FACTOR_BODY = {
  type: "object",
  required: ["challenge"],
  additionalProperties: false,
  properties: {
    challenge: {
      type: "string",
      minLength: 20,
      maxLength: 100,
      description: "From the password step's 401 second_factor_required",
    },
    ...PROOF_PROPERTIES,
  },
  oneOf: ONE_PROOF,
} as const;

export interface ConsoleSessionRoutesOptions {
  sessions: UserSessionService;
  consoleSessions: ConsoleSessions;
  twoFactor: TwoFactorService;
  users: TenantStore;
  rateLimiter?: ClientRateLimiter;
  signInTimeoutMs?: number;
}

/**
 * POST and DELETE /v1/auth/session: the console's sign-in and sign-out. The session lives in an
 * HttpOnly cookie (session-cookie.ts), so every tab of the browser shares it and no script can
 * read it; API clients keep using bearer tokens (POST /v1/auth/login).
 */
export async function consoleSessionRoutes(
  app: FastifyInstance,
  {
    sessions,
    consoleSessions,
    twoFactor,
    users,
    rateLimiter,
    signInTimeoutMs,
  }: ConsoleSessionRoutesOptions,
): Promise<void> {
  /** Starts the session of a user whose every factor was checked: the cookie and its answer. */
  const startSession = async (request: FastifyRequest, reply: FastifyReply, user: UserRecord) => {
    const { secret, session } = await consoleSessions.start(user, {
      userAgent: single(request.headers, "user-agent") ?? "",
      sourceAddress: request.ip,
    });
    await sessions.recordSignIn(user.id);
    request.log.info(
      {
        event: "console_sign_in",
        user_id: user.id,
        tenant_id: user.tenantId,
        session_id: session.id,
      },
      "console session started",
    );
    reply.header("set-cookie", sessionCookie(secret)).header("cache-control", "no-store");
    return { data: { id: session.id, expires_at: new Date(session.expiresAt).toISOString() } };
  };

  app.post<{ Body: { email: string; password: string } }>(
    "/v1/auth/session",
    {
      ...(signInTimeoutMs === undefined ? {} : { config: { deadlineMs: signInTimeoutMs } }),
      schema: {
        tags: ["Tenant users"],
        summary: "Sign in to the console: a server session in an HttpOnly cookie",
        description:
          "Checked, throttled and rate limited like POST /v1/auth/login (same problems). Sets the " +
          "`orderline_session` cookie (HttpOnly; Secure; SameSite=Strict; Path=/v1), which " +
          "authenticates tenant API calls without an Authorization header. Changes made with the " +
          "cookie must carry the console's Origin (403 cross_site_refused). The session ends at " +
          "sign-out, when an admin ends it or disables the user, after 12 h without a request, " +
          "or 30 days after sign-in (401 session_ended), on every instance at once. A user with " +
          "two-step sign-in gets no cookie here but 401 second_factor_required with a " +
          "`challenge` for POST /v1/auth/session/second-factor.",
        security: [],
        querystring: NO_QUERY,
        body: SIGN_IN_BODY,
        response: { 200: SESSION_ANSWER, ...problemResponses(400, 401, 403, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const source = addressBucket(request.ip);
      await rateLimiter?.check("login", source, request.log, "from this address");
      const user = await sessions.checkPassword(
        request.body.email,
        request.body.password,
        source,
        request.log,
      );
      await assertNoSecondFactorDue(
        twoFactor,
        user,
        "session",
        "POST /v1/auth/session/second-factor",
      );
      return startSession(request, reply, user);
    },
  );

  app.post<{ Body: SecondFactorBody & { code?: string; recovery_code?: string } }>(
    "/v1/auth/session/second-factor",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Second step of a console sign-in: the challenge and a code start the session",
        description:
          "For a user with two-step sign-in, POST /v1/auth/session answers 401 " +
          "second_factor_required with `challenge` (5 minutes, single use) instead of a session. " +
          "This call, with the challenge and the authenticator app's current `code` (one step " +
          "either side of now; a code once only) or one `recovery_code` (spent), sets the " +
          "session cookie as the password step would have. A wrong code: 401 " +
          "second_factor_invalid (the challenge stays usable); after 5 wrong codes for the user " +
          "from one address, 429 login_throttled with Retry-After. A used or expired challenge: " +
          "401 second_factor_challenge_invalid (sign in with the password again).",
        security: [],
        querystring: NO_QUERY,
        body: SECOND_FACTOR_BODY,
        response: { 200: SESSION_ANSWER, ...problemResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const source = addressBucket(request.ip);
      await rateLimiter?.check("login", source, request.log, "from this address");
      const proof = proofOf(request.body);
      const user = await passSecondFactor(request, twoFactor, users, "session", proof);
      return startSession(request, reply, user);
    },
  );

  app.delete(
    "/v1/auth/session",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Sign out of the console: the session ends on every instance at once",
        description:
          "Ends the session the cookie names (the cookie that signed in before answers 401 " +
          "session_ended from then on, wherever it is sent) and clears the cookie. Answers 204 " +
          "whether or not a session was open.",
        security: [],
        querystring: NO_QUERY,
        response: { 204: { type: "null" }, ...problemResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const secret = cookieOf(request.headers, SESSION_COOKIE);
      const ended = secret ? await consoleSessions.signOut(secret) : undefined;
      if (ended) {
        const { session, email, name } = ended;
        request.log.info(
          { event: "console_sign_out", user_id: session.userId, session_id: session.id },
          "console session signed out",
        );
        await request.server.auditTrail.record(
          {
            tenantId: session.tenantId,
            actor: { kind: "user", id: session.userId, label: email, name },
            action: "user_signed_out",
            details: { subject_user_id: session.userId, email, session_id: session.id },
            sourceAddress: request.ip,
            message: "console session signed out",
          },
          request.log,
        );
      }
      return reply.code(204).header("set-cookie", clearedSessionCookie()).send();
    },
  );
}
