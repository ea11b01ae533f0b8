import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type IssuedLink,
  type MemberView,
  memberView,
  type TeamService,
} from "../domain/users/team.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { addressBucket } from "../http/source-address.js";
import { PASSWORD_MAX_LENGTH } from "../security/passwords.js";
import type { UserRole } from "../store/tenant-store.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  requireAdmin,
  requireUser,
  USER_SECURITY,
  userOf,
} from "./guard.js";

const TAGS = ["Tenant team"];

const MEMBER = {
  type: "object",
  required: ["id", "email", "role", "language", "status", "created_at", "last_sign_in_at"],
  properties: {
    id: { type: "string" },
    email: { type: "string" },
    role: { type: "string", enum: ["admin", "member"] },
    language: { type: "string" },
    status: { type: "string", enum: ["invited", "active", "disabled"] },
    created_at: { type: "string", format: "date-time" },
    last_sign_in_at: { type: ["string", "null"], format: "date-time" },
  },
} as const;

const LINK = {
  type: "object",
  required: ["token", "path", "expires_at", "mailed"],
  properties: {
    token: { type: "string", description: "Shown once; only its hash is kept" },
    path: {
      type: "string",
      description: "The console route that takes it: append to the console's address",
    },
    expires_at: { type: "string", format: "date-time" },
    mailed: { type: "boolean", description: "Also sent by mail (GATEWAY_SMTP_URL is set)" },
  },
} as const;

const USER_PARAMS = {
  type: "object",
  required: ["user_id"],
  properties: { user_id: { type: "string", minLength: 1, maxLength: 64 } },
} as const;

const ROLE = { type: "string", enum: ["admin", "member"] } as const;
const TOKEN = { type: "string", minLength: 20, maxLength: 200 } as const;
const data = (schema: object) => ({
  type: "object",
  required: ["data"],
  properties: { data: schema },
});

const INVITE_BODY = {
  type: "object",
  required: ["email", "role"],
  additionalProperties: false,
  properties: {
    email: { type: "string", minLength: 3, maxLength: 254 },
    role: ROLE,
    language: { type: "string", minLength: 1, maxLength: 35 },
  },
} as const;

const LINK_BODY = {
  type: "object",
  required: ["token"],
  additionalProperties: false,
  properties: { token: TOKEN },
} as const;

const LINK_INFO = data({
  type: "object",
  required: ["email", "purpose"],
  properties: { email: { type: "string" }, purpose: { enum: ["invite", "reset"] } },
});

const SET_PASSWORD_BODY = {
  type: "object",
  required: ["token", "password"],
  additionalProperties: false,
  properties: {
    token: TOKEN,
    password: { type: "string", minLength: 1, maxLength: PASSWORD_MAX_LENGTH },
  },
} as const;

const FORGOT_BODY = {
  type: "object",
  required: ["email"],
  additionalProperties: false,
  properties: { email: { type: "string", minLength: 3, maxLength: 254 } },
} as const;

const FORGOT_ANSWER = data({
  type: "object",
  required: ["delivery"],
  properties: { delivery: { enum: ["mail", "ask_admin"] } },
});

export interface TeamRoutesOptions {
  team: TeamService;
  authenticator: UserAuthenticator;
}

/** The subject's id and email in an audit event's details. */
const about = (member: Pick<MemberView, "id" | "email">) => ({
  subject_user_id: member.id,
  email: member.email,
});

/** A PATCH of a member: the role, then the disabled flag, each audited when it changes. */
async function changeMember(
  team: TeamService,
  request: FastifyRequest<{
    Params: { user_id: string };
    Body: { role?: UserRole; disabled?: boolean };
  }>,
  context: UserContext,
): Promise<MemberView> {
  const { user_id } = request.params;
  const { role, disabled } = request.body;
  const before = await team.member(context.tenant.id, user_id);
  let member = memberView(before);
  if (role !== undefined && role !== before.role) {
    member = await team.changeRole(context.tenant.id, user_id, role);
    await auditTenantChange(request, context, "user_role_changed", {
      ...about(member),
      from: before.role,
      to: role,
    });
  }
  if (disabled !== undefined && disabled !== Boolean(before.disabledAt)) {
    member = await team.setDisabled(context.tenant.id, user_id, disabled);
    await auditTenantChange(
      request,
      context,
      disabled ? "user_disabled" : "user_enabled",
      about(member),
    );
  }
  return member;
}

/**
 * /v1/tenant/users: the tenant's team. Every user reads it (members read-only); admins invite
 * (a one-time set-password link, mailed too when mail is configured), change roles, disable and
 * enable, and issue new links. Another tenant's user answers 404 like a missing one; the last
 * enabled admin cannot be demoted or disabled. Every change is audited.
 */
export async function tenantTeamRoutes(
  app: FastifyInstance,
  { team, authenticator }: TeamRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get(
    "/v1/tenant/users",
    {
      schema: {
        tags: TAGS,
        summary: "The tenant's team (every user; only admins change it)",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: { 200: data({ type: "array", items: MEMBER }), ...problemResponses(400, 401) },
      },
    },
    async (request) => ({ data: await team.list(userOf(request).tenant.id) }),
  );

  app.post<{ Body: { email: string; role: UserRole; language?: string } }>(
    "/v1/tenant/users",
    {
      schema: {
        tags: TAGS,
        summary: "Invite a user (tenant admins): a one-time set-password link",
        description:
          "Creates the user without a password and answers a set-password link once (Cache-Control: " +
          "no-store) for the admin to hand over; with GATEWAY_SMTP_URL set it is mailed too. The link " +
          "works once, for GATEWAY_PASSWORD_LINK_TTL_SECONDS (default 3 days).",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: INVITE_BODY,
        response: {
          201: data({
            type: "object",
            required: ["member", "link"],
            properties: { member: MEMBER, link: LINK },
          }),
          ...problemResponses(400, 401, 403, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const context = requireAdmin(request, "invite users");
      const invited = await team.invite(context.tenant, request.body);
      await auditTenantChange(request, context, "user_invited", {
        ...about(invited.member),
        role: invited.member.role,
        mailed: invited.link.mailed,
      });
      reply.code(201).header("cache-control", "no-store");
      return { data: invited };
    },
  );

  app.patch<{ Params: { user_id: string }; Body: { role?: UserRole; disabled?: boolean } }>(
    "/v1/tenant/users/:user_id",
    {
      schema: {
        tags: TAGS,
        summary: "Change a user's role, or disable / enable them (tenant admins)",
        description:
          "Disabling ends every session of the user at once, on every instance (409 last_admin when it " +
          "would leave no enabled admin, yourself included); enabling lets them sign in again.",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        body: {
          type: "object",
          minProperties: 1,
          additionalProperties: false,
          properties: { role: ROLE, disabled: { type: "boolean" } },
        },
        response: { 200: data(MEMBER), ...problemResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => ({
      data: await changeMember(team, request, requireAdmin(request, "change users")),
    }),
  );

  app.post<{ Params: { user_id: string } }>(
    "/v1/tenant/users/:user_id/password-link",
    {
      schema: {
        tags: TAGS,
        summary: "A new one-time set-password link for a user (tenant admins)",
        description:
          "For a forgotten password or an invite sent again: the user's earlier unused links stop " +
          "working; their password and sessions stay until the link is used.",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        response: { 201: data(LINK), ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const context = requireAdmin(request, "reset passwords");
      const user = await team.member(context.tenant.id, request.params.user_id);
      const link: IssuedLink = await team.resetLink(context.tenant, user.id);
      await auditTenantChange(request, context, "user_password_link_created", {
        ...about(user),
        mailed: link.mailed,
      });
      reply.code(201).header("cache-control", "no-store");
      return { data: link };
    },
  );
}

export interface PasswordLinkRoutesOptions {
  team: TeamService;
  rateLimiter?: ClientRateLimiter;
}

/**
 * The signed-out side of team management: what a set-password link is for, using it, and
 * "forgot password". Rate limited per source address like sign-in; the link's token travels in
 * bodies only (never a URL the server logs).
 */
export async function passwordLinkRoutes(
  app: FastifyInstance,
  { team, rateLimiter }: PasswordLinkRoutesOptions,
): Promise<void> {
  const limited = (request: FastifyRequest) =>
    rateLimiter?.check("login", addressBucket(request.ip), request.log, "from this address");
  const record = (
    request: FastifyRequest,
    user: { id: string; email: string; tenantId: string },
    action: string,
  ) =>
    request.server.auditTrail.record(
      {
        tenantId: user.tenantId,
        actor: { kind: "user", id: user.id, label: user.email },
        action,
        details: { subject_user_id: user.id, email: user.email },
        sourceAddress: request.ip,
        message: "tenant user's password link",
      },
      request.log,
    );

  app.post<{ Body: { token: string } }>(
    "/v1/auth/password-link",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "What a set-password link is for (its email), without using it",
        security: [],
        querystring: NO_QUERY,
        body: LINK_BODY,
        response: { 200: LINK_INFO, ...problemResponses(400, 410, 413, 415, 429) },
      },
    },
    async (request) => {
      await limited(request);
      return { data: await team.inspectLink(request.body.token) };
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    "/v1/auth/set-password",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Use a set-password link: the password is set, the link is spent",
        description:
          "Single use; every earlier token of the user stops working. Then sign in with " +
          "POST /v1/auth/login. A used, expired or replaced link: 410 password_link_invalid.",
        security: [],
        querystring: NO_QUERY,
        body: SET_PASSWORD_BODY,
        response: { 204: { type: "null" }, ...problemResponses(400, 410, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await limited(request);
      const user = await team.setPassword(request.body.token, request.body.password);
      await record(request, user, "user_password_set");
      return reply.code(204).send();
    },
  );

  app.post<{ Body: { email: string } }>(
    "/v1/auth/forgot-password",
    {
      schema: {
        tags: ["Tenant users"],
        summary: "Forgot password: mail a reset link, or say to ask an admin",
        description:
          "Answers alike whether or not the email has an account: `delivery` is `mail` when the gateway " +
          "sends mail (GATEWAY_SMTP_URL; a link arrives if the address has an enabled account), else " +
          "`ask_admin` (an admin issues a link on the Team page).",
        security: [],
        querystring: NO_QUERY,
        body: FORGOT_BODY,
        response: { 202: FORGOT_ANSWER, ...problemResponses(400, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await limited(request);
      if (team.mailConfigured) {
        // Not awaited: the answer must not take longer when the address has an account.
        team
          .requestReset(request.body.email)
          .then((user) => user && record(request, user, "user_password_reset_requested"))
          .catch((error: unknown) =>
            request.log.warn(
              { event: "password_reset_mail_failed", err: (error as Error).message },
              "password reset mail not sent",
            ),
          );
      }
      reply.code(202);
      return { data: { delivery: team.mailConfigured ? "mail" : "ask_admin" } };
    },
  );
}
