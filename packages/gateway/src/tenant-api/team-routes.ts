import type { FastifyInstance, FastifyRequest } from "fastify";
import { DISPLAY_NAME_SCHEMA } from "../domain/users/display-name.js";
import {
  type IssuedLink,
  type MemberView,
  memberView,
  type TeamService,
} from "../domain/users/team.js";
import type { ClientRateLimiter } from "../http/rate-limit.js";
import { problemResponses } from "../http/schemas.js";
import { addressBucket } from "../lib/address-bucket.js";
import { PASSWORD_MAX_LENGTH } from "../security/passwords.js";
import type { UserRecord, UserRole } from "../store/tenant-store.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import type { ConsoleSessions } from "./console-sessions.js";
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
  required: ["id", "name", "email", "role", "language", "status", "created_at", "last_sign_in_at"],
  properties: {
    id: { type: "string" },
    name: {
      type: ["string", "null"],
      description: "The display name; null when none is set (show the email instead)",
    },
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
  required: ["expires_at", "mailed"],
  properties: {
    token: {
      type: "string",
      description:
        "Shown once, only without mail (GATEWAY_SMTP_URL unset); only its hash is kept. With mail the link goes to the user's mailbox only",
    },
    path: {
      type: "string",
      description:
        "The console route that takes it: append to the console's address (only with token)",
    },
    expires_at: { type: "string", format: "date-time" },
    mailed: {
      type: "boolean",
      description:
        "Sent by mail; false with mail configured means sending failed (issue a new link)",
    },
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
    name: DISPLAY_NAME_SCHEMA,
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
  required: ["email", "purpose", "language"],
  properties: {
    email: { type: "string" },
    purpose: { enum: ["invite", "reset"] },
    language: {
      type: "string",
      description: "The user's language (for an invite, the one the inviter chose): the page's",
    },
  },
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

interface TeamRoutesOptions {
  team: TeamService;
  authenticator: UserAuthenticator;
  /** Ended when their user is disabled. */
  consoleSessions?: ConsoleSessions;
}

/** The subject's id, email and (when set) name in an audit event's details. */
const about = (member: Pick<MemberView, "id" | "email"> & { name?: string | null }) => ({
  subject_user_id: member.id,
  email: member.email,
  ...(member.name ? { name: member.name } : {}),
});

type MemberChange = { role?: UserRole; disabled?: boolean; name?: string | null };

/**
 * Names a user (an admin naming a member, or a user themself), audited as `user_renamed` with
 * the name before and after when it changes. The actor is named in the event as who they are.
 */
export async function renameMember(
  team: TeamService,
  request: FastifyRequest,
  context: UserContext,
  userId: string,
  name: string | null,
): Promise<MemberView> {
  const { before, member } = await team.rename(context.tenant.id, userId, name);
  if ((before.displayName ?? null) !== member.name)
    await auditTenantChange(request, context, "user_renamed", {
      subject_user_id: member.id,
      email: member.email,
      from: before.displayName ?? null,
      to: member.name,
    });
  return member;
}

/**
 * A PATCH of a member: the name, the role, then the disabled flag, each audited when it
 * changes.
 */
async function changeMember(
  { team, consoleSessions }: Pick<TeamRoutesOptions, "team" | "consoleSessions">,
  request: FastifyRequest<{ Params: { user_id: string }; Body: MemberChange }>,
  context: UserContext,
): Promise<MemberView> {
  const { user_id } = request.params;
  const { role, disabled, name } = request.body;
  const before = await team.member(context.tenant.id, user_id);
  let member =
    name === undefined
      ? memberView(before)
      : await renameMember(team, request, context, user_id, name);
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
    // The session check refuses a disabled user anyway; ending the rows makes that final (an
    // enabled user signs in afresh) and takes them off the sessions list.
    if (disabled) await consoleSessions?.endAll(user_id, "user_disabled");
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
  { team, authenticator, consoleSessions }: TeamRoutesOptions,
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

  app.post<{ Body: { email: string; role: UserRole; language?: string; name?: string | null } }>(
    "/v1/tenant/users",
    {
      schema: {
        tags: TAGS,
        summary: "Invite a user (tenant admins): a one-time set-password link",
        description:
          "Creates the user without a password and a set-password link. Without mail the link is " +
          "answered once (Cache-Control: no-store) for the admin to hand over; with GATEWAY_SMTP_URL " +
          "set it is mailed to the invitee only and never answered (no admin can use it). The link " +
          "works once, for GATEWAY_PASSWORD_LINK_TTL_SECONDS (default 3 days). Mail counts against the " +
          "tenant's and the recipient's mails share (429 rate_limited). The email must be unused in " +
          "this tenant only (409 user_exists); other tenants' users are neither seen nor blocked. " +
          "`name` (optional) is how the team sees them until they change it; `language` is the " +
          "language of their link's page and mail.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: INVITE_BODY,
        response: {
          201: data({
            type: "object",
            required: ["member", "link"],
            properties: { member: MEMBER, link: LINK },
          }),
          ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429),
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

  app.patch<{ Params: { user_id: string }; Body: MemberChange }>(
    "/v1/tenant/users/:user_id",
    {
      schema: {
        tags: TAGS,
        summary: "Rename a user, change their role, or disable / enable them (tenant admins)",
        description:
          "`name` sets the display name (at most 200 characters after trimming; null or empty " +
          "removes it; 400 validation_failed with `errors[].pointer` /name otherwise). Disabling ends every session of the user at once, on every instance (409 last_admin when it " +
          "would leave no enabled admin, yourself included) and revokes their unused set-password " +
          "links; enabling lets them sign in again (old tokens and links stay dead).",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        body: {
          type: "object",
          minProperties: 1,
          additionalProperties: false,
          properties: { role: ROLE, disabled: { type: "boolean" }, name: DISPLAY_NAME_SCHEMA },
        },
        response: { 200: data(MEMBER), ...problemResponses(400, 401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => ({
      data: await changeMember(
        { team, consoleSessions },
        request,
        requireAdmin(request, "change users"),
      ),
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
          "working; their password and sessions stay until the link is used. With mail configured " +
          "the link is mailed to the user only and never answered (429 rate_limited when the mails " +
          "share is spent).",
        security: USER_SECURITY,
        params: USER_PARAMS,
        querystring: NO_QUERY,
        response: { 201: data(LINK), ...problemResponses(400, 401, 403, 404, 429) },
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

/** The user a self-service reset mail went to, if one went. */
async function mailReset(team: TeamService, email: string): Promise<UserRecord | undefined> {
  const user = await team.resetCandidate(email);
  return user && (await team.mailReset(user)) ? user : undefined;
}

interface PasswordLinkRoutesOptions {
  team: TeamService;
  rateLimiter?: ClientRateLimiter;
  /** Ended when their user's password is set through a link. */
  consoleSessions?: ConsoleSessions;
}

/**
 * The signed-out side of team management: what a set-password link is for, using it, and
 * "forgot password". Rate limited per source address like sign-in; the link's token travels in
 * bodies only (never a URL the server logs).
 */
export async function passwordLinkRoutes(
  app: FastifyInstance,
  { team, rateLimiter, consoleSessions }: PasswordLinkRoutesOptions,
): Promise<void> {
  const limited = (request: FastifyRequest) =>
    rateLimiter?.check("login", addressBucket(request.ip), request.log, "from this address");
  /** The link's holder acts as its user: whoever has it may set that user's password. */
  const recordAsUser = (request: FastifyRequest, user: UserRecord, action: string) =>
    request.server.auditTrail.record(
      {
        tenantId: user.tenantId,
        actor: { kind: "user", id: user.id, label: user.email, name: user.displayName ?? null },
        action,
        details: { subject_user_id: user.id, email: user.email },
        sourceAddress: request.ip,
        message: "tenant user's password link",
      },
      request.log,
    );
  /**
   * Nobody signed in asked: the actor is the anonymous caller's address bucket (the audit has no
   * anonymous kind; "system" with an `address:` id), the user only the subject.
   */
  const recordAnonymous = (request: FastifyRequest, user: UserRecord, action: string) =>
    request.server.auditTrail.record(
      {
        tenantId: user.tenantId,
        actor: {
          kind: "system",
          id: `address:${addressBucket(request.ip)}`,
          label: "anonymous",
        },
        action,
        details: { subject_user_id: user.id, email: user.email },
        sourceAddress: request.ip,
        message: "anonymous password reset request",
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
        response: { 204: { type: "null" }, ...problemResponses(400, 409, 410, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await limited(request);
      const user = await team.setPassword(request.body.token, request.body.password);
      // Like every earlier token: whoever held a session with the old password holds none now.
      await consoleSessions?.endAll(user.id, "password_set");
      await recordAsUser(request, user, "user_password_set");
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
          "sends mail (GATEWAY_SMTP_URL; a link arrives if the address has an enabled account and " +
          "its mails share is not spent), else `ask_admin` (an admin issues a link on the Team " +
          "page). The mailed link is added: a link an admin issued stays valid.",
        security: [],
        querystring: NO_QUERY,
        body: FORGOT_BODY,
        response: { 202: FORGOT_ANSWER, ...problemResponses(400, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await limited(request);
      if (team.mailConfigured) {
        // Not awaited: the answer must not take longer when the address has an account, nor
        // differ when its mails share is spent (then no mail goes, and none is audited).
        mailReset(team, request.body.email)
          .then((user) => user && recordAnonymous(request, user, "user_password_reset_requested"))
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
