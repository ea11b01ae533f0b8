import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SecondFactorProof, TwoFactorService } from "../domain/users/two-factor.js";
import { problemResponses } from "../http/schemas.js";
import { addressBucket } from "../lib/address-bucket.js";
import { ApiError } from "../problems/api-error.js";
import type { TenantStore } from "../store/tenant-store.js";
import type { TwoFactorPolicy } from "../store/two-factor-store.js";
import type { UserAuthenticator } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  requireAdmin,
  requireUser,
  USER_SECURITY,
  userOf,
} from "./guard.js";

const USER_TAGS = ["Tenant users"];
const data = (schema: object) => ({
  type: "object",
  required: ["data"],
  properties: { data: schema },
});

const CODE = { type: "string", minLength: 6, maxLength: 10, pattern: "^[0-9 ]+$" } as const;
const RECOVERY_CODE = { type: "string", minLength: 10, maxLength: 20 } as const;

/** A current code or a recovery code, exactly one. */
export const PROOF_PROPERTIES = {
  code: { ...CODE, description: "The authenticator app's current 6-digit code" },
  recovery_code: {
    ...RECOVERY_CODE,
    description: "One of the recovery codes (XXXXX-XXXXX), spent by this use",
  },
} as const;
export const ONE_PROOF = [{ required: ["code"] }, { required: ["recovery_code"] }] as const;

export const proofOf = (body: { code?: string; recovery_code?: string }): SecondFactorProof =>
  body.code !== undefined ? { code: body.code } : { recoveryCode: body.recovery_code ?? "" };

const STATUS = data({
  type: "object",
  required: ["enabled", "required", "recovery_codes_left"],
  properties: {
    enabled: { type: "boolean", description: "Sign-in asks for a code after the password" },
    required: {
      type: "boolean",
      description: "The tenant requires it of this user (tenant two-factor policy)",
    },
    recovery_codes_left: { type: "integer" },
  },
});

const ENROLMENT = data({
  type: "object",
  required: ["secret", "otpauth_uri"],
  properties: {
    secret: {
      type: "string",
      description:
        "Base32 secret (shown once; typed into the app when the QR code cannot be scanned)",
    },
    otpauth_uri: {
      type: "string",
      description: "otpauth://totp/… (SHA-1, 6 digits, 30 s): what the QR code carries",
    },
  },
});

const CONFIRM_BODY = {
  type: "object",
  required: ["code"],
  additionalProperties: false,
  properties: { code: CODE },
} as const;

const RECOVERY_CODES = data({
  type: "object",
  required: ["recovery_codes"],
  properties: {
    recovery_codes: {
      type: "array",
      items: { type: "string" },
      description: "Ten single-use codes, shown once (only their hashes are kept)",
    },
  },
});

const DISABLE_BODY = {
  type: "object",
  additionalProperties: false,
  properties: PROOF_PROPERTIES,
  oneOf: ONE_PROOF,
} as const;

const POLICIES: readonly TwoFactorPolicy[] = ["nobody", "admins", "everyone"];
const POLICY = data({
  type: "object",
  required: ["required_for"],
  properties: {
    required_for: {
      type: "string",
      enum: POLICIES,
      description: "Whose sign-in needs a second factor; who has none must set it up first",
    },
  },
});
const POLICY_BODY = {
  type: "object",
  required: ["required_for"],
  additionalProperties: false,
  properties: { required_for: { type: "string", enum: POLICIES } },
} as const;

export interface TwoFactorRoutesOptions {
  twoFactor: TwoFactorService;
  authenticator: UserAuthenticator;
  users: TenantStore;
}

const USER_PARAMS = {
  type: "object",
  required: ["user_id"],
  properties: { user_id: { type: "string", minLength: 1, maxLength: 64 } },
} as const;

const source = (request: FastifyRequest) => addressBucket(request.ip);
const self = (user: { id: string; email: string }) => ({
  subject_user_id: user.id,
  email: user.email,
});

/**
 * /v1/user/two-factor: the signed-in user's own two-step sign-in (TOTP): set it up (a secret
 * shown once, confirmed by a first code, answered with recovery codes shown once), see it, turn
 * it off with a current or recovery code. /v1/tenant/two-factor-policy: whom the tenant requires
 * it of (admins change it). Every change is audited.
 */
export async function twoFactorRoutes(
  app: FastifyInstance,
  { twoFactor, authenticator, users }: TwoFactorRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);
  const beforeTwoFactor = { beforeTwoFactor: true };

  app.get(
    "/v1/user/two-factor",
    {
      config: beforeTwoFactor,
      schema: {
        tags: USER_TAGS,
        summary: "The signed-in user's two-step sign-in: on or off, required or not",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: { 200: STATUS, ...problemResponses(400, 401) },
      },
    },
    async (request) => {
      const { user, tenant } = userOf(request);
      const status = await twoFactor.status(user, tenant);
      return {
        data: {
          enabled: status.enabled,
          required: status.required,
          recovery_codes_left: status.recoveryCodesLeft,
        },
      };
    },
  );

  app.post(
    "/v1/user/two-factor/enrolment",
    {
      config: beforeTwoFactor,
      schema: {
        tags: USER_TAGS,
        summary: "Start setting up two-step sign-in: a new authenticator secret, shown once",
        description:
          "Nothing changes at sign-in until the set-up is confirmed with a first code. Starting " +
          "again replaces a set-up not yet confirmed. 409 two_factor_already_enabled when it is on.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: { 200: ENROLMENT, ...problemResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user } = userOf(request);
      const { secret, uri } = await twoFactor.startEnrolment(user);
      reply.header("cache-control", "no-store");
      return { data: { secret, otpauth_uri: uri } };
    },
  );

  app.post<{ Body: { code: string } }>(
    "/v1/user/two-factor/enrolment/confirm",
    {
      config: beforeTwoFactor,
      schema: {
        tags: USER_TAGS,
        summary: "Confirm the set-up with a current code: two-step sign-in is on",
        description:
          "Answers ten single-use recovery codes, once. A wrong code: 422 two_factor_code_invalid, " +
          "throttled like sign-in codes (429 login_throttled with Retry-After).",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: CONFIRM_BODY,
        response: {
          200: RECOVERY_CODES,
          ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const context = userOf(request);
      const codes = await twoFactor.confirmEnrolment(
        context.user,
        request.body.code,
        source(request),
      );
      await auditTenantChange(
        request,
        context,
        "user_two_factor_enrolled",
        self(context.user),
        "two-step sign-in turned on",
      );
      reply.header("cache-control", "no-store");
      return { data: { recovery_codes: codes } };
    },
  );

  app.delete<{ Body: { code?: string; recovery_code?: string } }>(
    "/v1/user/two-factor",
    {
      schema: {
        tags: USER_TAGS,
        summary: "Turn two-step sign-in off, with a current code or a recovery code",
        description:
          "Proving the factor (not the password) turns it off: whoever holds a session cannot " +
          "remove it without the phone or a recovery code. A wrong code: 422 " +
          "two_factor_code_invalid, throttled (429 login_throttled). When the tenant requires " +
          "it, the next request must set it up again (403 two_factor_enrolment_required).",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: DISABLE_BODY,
        response: {
          204: { type: "null" },
          ...problemResponses(400, 401, 403, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const context = userOf(request);
      await twoFactor.disable(context.user, proofOf(request.body), source(request));
      await auditTenantChange(
        request,
        context,
        "user_two_factor_disabled",
        self(context.user),
        "two-step sign-in turned off",
      );
      return reply.code(204).send();
    },
  );

  app.get(
    "/v1/tenant/two-factor-policy",
    {
      schema: {
        tags: ["Tenant team"],
        summary: "Whom the tenant requires two-step sign-in of",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        response: { 200: POLICY, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      data: { required_for: userOf(request).tenant.twoFactorRequired ?? "nobody" },
    }),
  );

  app.put<{ Body: { required_for: TwoFactorPolicy } }>(
    "/v1/tenant/two-factor-policy",
    {
      schema: {
        tags: ["Tenant team"],
        summary: "Require two-step sign-in of nobody, the admins or everyone (admins only)",
        description:
          "A user it applies to who has not set it up can, from their next request, only set it " +
          "up (403 two_factor_enrolment_required elsewhere). Audited.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        body: POLICY_BODY,
        response: { 200: POLICY, ...problemResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request) => {
      const context = requireAdmin(request, "change the two-step sign-in policy");
      const from = context.tenant.twoFactorRequired ?? "nobody";
      const to = request.body.required_for;
      if (to !== from) {
        await twoFactor.setPolicy(context.tenant.id, to);
        await auditTenantChange(
          request,
          context,
          "tenant_two_factor_policy_changed",
          { from, to },
          "two-step sign-in policy changed",
        );
      }
      return { data: { required_for: to } };
    },
  );

  app.delete<{ Params: { user_id: string } }>(
    "/v1/tenant/users/:user_id/two-factor",
    {
      schema: {
        tags: ["Tenant team"],
        summary: "Turn off a user's two-step sign-in (admins: a lost phone and lost codes)",
        description:
          "The user signs in with the password alone again, or, when the tenant requires it, is " +
          "sent to set it up anew. 404 user_not_found for another tenant's user; 409 " +
          "two_factor_not_enabled when it is off. Audited as user_two_factor_reset.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        params: USER_PARAMS,
        response: { 204: { type: "null" }, ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const context = requireAdmin(request, "turn off a user's two-step sign-in");
      const user = await users.findUser(request.params.user_id);
      if (!user || user.tenantId !== context.tenant.id)
        throw new ApiError("user_not_found", `No user '${request.params.user_id}' in your tenant.`);
      if (!(await twoFactor.reset(user.id)))
        throw new ApiError("two_factor_not_enabled", "Two-step sign-in is not on for this user.");
      await auditTenantChange(
        request,
        context,
        "user_two_factor_reset",
        self(user),
        "a user's two-step sign-in turned off by an admin",
      );
      return reply.code(204).send();
    },
  );
}
