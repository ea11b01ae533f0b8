import type { FastifyInstance } from "fastify";
import type { TeamService } from "../domain/users/team.js";
import { problemResponses } from "../http/schemas.js";
import { ApiError } from "../problems/api-error.js";
import type { ConsoleSessionRecord } from "../store/console-session-store.js";
import type { UserAuthenticator } from "./authenticate.js";
import type { ConsoleSessions } from "./console-sessions.js";
import { auditTenantChange, NO_QUERY, requireAdmin, requireUser, USER_SECURITY } from "./guard.js";

const TAGS = ["Tenant team"];

const SESSION = {
  type: "object",
  required: ["id", "created_at", "last_seen_at", "expires_at", "user_agent", "source_address"],
  properties: {
    id: { type: "string" },
    created_at: { type: "string", format: "date-time" },
    last_seen_at: {
      type: "string",
      format: "date-time",
      description: "The last request, to the minute",
    },
    expires_at: { type: "string", format: "date-time" },
    user_agent: { type: "string" },
    source_address: { type: "string" },
  },
} as const;

const USER_PARAMS = {
  type: "object",
  required: ["user_id"],
  properties: { user_id: { type: "string", minLength: 1, maxLength: 64 } },
} as const;

const SESSION_PARAMS = {
  type: "object",
  required: ["user_id", "session_id"],
  properties: {
    user_id: { type: "string", minLength: 1, maxLength: 64 },
    session_id: { type: "string", minLength: 1, maxLength: 64 },
  },
} as const;

const view = (s: ConsoleSessionRecord) => ({
  id: s.id,
  created_at: new Date(s.createdAt).toISOString(),
  last_seen_at: new Date(s.lastSeenAt).toISOString(),
  expires_at: new Date(s.expiresAt).toISOString(),
  user_agent: s.userAgent,
  source_address: s.sourceAddress,
});

interface TeamSessionRoutesOptions {
  team: TeamService;
  consoleSessions: ConsoleSessions;
  authenticator: UserAuthenticator;
}

/**
 * /v1/tenant/users/:user_id/sessions: a user's open console sessions, for tenant admins to see
 * and end (a lost laptop, someone who left). Another tenant's user answers 404 like a missing
 * one (team.member). Ending is audited and takes effect on every instance at the next request.
 */
export async function tenantTeamSessionRoutes(
  app: FastifyInstance,
  { team, consoleSessions, authenticator }: TeamSessionRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Params: { user_id: string } }>(
    "/v1/tenant/users/:user_id/sessions",
    {
      schema: {
        tags: TAGS,
        summary: "A user's open console sessions (tenant admins)",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        response: {
          200: {
            type: "object",
            required: ["data"],
            properties: { data: { type: "array", items: SESSION } },
          },
          ...problemResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const context = requireAdmin(request, "see users' sessions");
      const user = await team.member(context.tenant.id, request.params.user_id);
      return { data: (await consoleSessions.listActive(user.id)).map(view) };
    },
  );

  app.delete<{ Params: { user_id: string } }>(
    "/v1/tenant/users/:user_id/sessions",
    {
      schema: {
        tags: TAGS,
        summary: "End every console session of a user (tenant admins)",
        description: "Answers how many were open. The user can sign in again.",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        response: {
          200: {
            type: "object",
            required: ["data"],
            properties: {
              data: {
                type: "object",
                required: ["ended"],
                properties: { ended: { type: "integer" } },
              },
            },
          },
          ...problemResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const context = requireAdmin(request, "end users' sessions");
      const user = await team.member(context.tenant.id, request.params.user_id);
      const ended = await consoleSessions.endAll(user.id, "ended_by_admin");
      await auditTenantChange(request, context, "user_sessions_ended", {
        subject_user_id: user.id,
        email: user.email,
        ended,
      });
      return { data: { ended } };
    },
  );

  app.delete<{ Params: { user_id: string; session_id: string } }>(
    "/v1/tenant/users/:user_id/sessions/:session_id",
    {
      schema: {
        tags: TAGS,
        summary: "End one console session of a user (tenant admins)",
        description: "404 not_found when the user has no such open session.",
        security: USER_SECURITY,
        params: SESSION_PARAMS,
        querystring: NO_QUERY,
        response: { 204: { type: "null" }, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const context = requireAdmin(request, "end users' sessions");
      const user = await team.member(context.tenant.id, request.params.user_id);
      const { session_id } = request.params;
      if (!(await consoleSessions.end(user.id, session_id, "ended_by_admin")))
        throw new ApiError("not_found", "This user has no open session with that id.");
      await auditTenantChange(request, context, "user_sessions_ended", {
        subject_user_id: user.id,
        email: user.email,
        session_id,
        ended: 1,
      });
      return reply.code(204).send();
    },
  );
}
