import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuditSubject, AuditTrail } from "../domain/audit/trail.js";
import { routeConfigOf } from "../http/route-config.js";
import { ApiError } from "../problems/api-error.js";
import type { ErrorCode } from "../problems/catalogue.js";
import type { UserRole } from "../store/tenant-store.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";

const contexts = new WeakMap<FastifyRequest, UserContext>();

/** Names that would let a client pick a tenant; the tenant comes from the token only. */
const TENANT_NAMES = /tenant|^(tid|org|orgid|organi[sz]ation|organi[sz]ationid|company|companyid)$/;
const TENANT_HEADERS = ["x-tenant", "x-tenant-id", "x-org-id", "x-organization-id"];

const normalised = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Refuses a request that tries to name a tenant: a query parameter, a top-level body property or
 * an X-Tenant(-Id) header, and any body on a GET. Refused, never used, so a crafted request
 * cannot reach another tenant.
 */
function refuseTenantParameters(request: FastifyRequest): void {
  if (
    (request.method === "GET" || request.method === "HEAD") &&
    (Number(request.headers["content-length"] ?? 0) > 0 ||
      request.headers["transfer-encoding"] !== undefined)
  ) {
    // The server does not parse a GET body, so it cannot say what it names: refuse them all.
    throw new ApiError(
      "validation_failed",
      "A GET request to the tenant API takes no body; the tenant is taken from the bearer token.",
    );
  }
  const named: string[] = [];
  const query = request.query as Record<string, unknown> | undefined;
  for (const key of Object.keys(query ?? {})) {
    if (TENANT_NAMES.test(normalised(key))) named.push(`query parameter '${key}'`);
  }
  const body = request.body;
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    for (const key of Object.keys(body)) {
      if (TENANT_NAMES.test(normalised(key))) named.push(`body property '${key}'`);
    }
  }
  for (const header of TENANT_HEADERS) {
    if (request.headers[header] !== undefined) named.push(`header '${header}'`);
  }
  if (named.length > 0) {
    throw new ApiError(
      "tenant_parameter_refused",
      `The tenant is taken from the bearer token only; remove the ${named.join(", ")}.`,
      { refused: named },
    );
  }
}

/**
 * Puts every route of this plugin behind user authentication: the bearer token is checked
 * before anything about the request is looked at (preValidation runs before schema
 * validation), and the request counted in its caller's shares (UserAuthenticator.admit), then
 * tenant-naming parameters are refused.
 */
export function requireUser(app: FastifyInstance, authenticator: UserAuthenticator): void {
  app.addHook("preValidation", async (request) => {
    const beforeTwoFactor = routeConfigOf(request).beforeTwoFactor === true;
    contexts.set(request, await authenticator.admit(request, beforeTwoFactor));
    refuseTenantParameters(request);
  });
}

export function userOf(request: FastifyRequest): UserContext {
  const context = contexts.get(request);
  if (!context) throw new Error("tenant route reached without authentication");
  return context;
}

export function requireRole(context: UserContext, role: UserRole, action: string): void {
  if (context.user.role !== role) {
    throw new ApiError(
      "role_forbidden",
      `Only tenant ${role}s may ${action}; your role is ${context.user.role}.`,
      { required_role: role },
    );
  }
}

/** The caller, who must be one of the tenant's admins to do `action`. */
export function requireAdmin(request: FastifyRequest, action: string): UserContext {
  const context = userOf(request);
  requireRole(context, "admin", action);
  return context;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route serves a signed-in user who must still set up a second factor (requireUser
     * refuses every other route to them with 403 two_factor_enrolment_required).
     */
    beforeTwoFactor?: boolean;
  }
  interface FastifyInstance {
    /** The gateway's audit trail (domain/audit/), decorated on the app by gateway.ts. */
    auditTrail: AuditTrail;
  }
}

/**
 * Records a tenant user's change in the audit trail (logged with `audit: true` and kept for the
 * Activity page): who (user, tenant, source address), what (`event`) and on what (`details`,
 * never a secret; the subject is derived from them unless given); `summaryOf` names a summary
 * line to update instead of adding a row (AuditEntry). Never rejects.
 */
export function auditTenantChange(
  request: FastifyRequest,
  context: UserContext,
  event: string,
  details: Record<string, unknown>,
  message = "tenant change audited",
  subject?: AuditSubject,
  summaryOf?: string,
): Promise<void> {
  return request.server.auditTrail.record(
    {
      tenantId: context.tenant.id,
      actor: {
        kind: "user",
        id: context.user.id,
        label: context.user.email,
        name: context.user.displayName ?? null,
      },
      action: event,
      details,
      message,
      sourceAddress: request.ip,
      ...(subject ? { subject } : {}),
      ...(summaryOf === undefined ? {} : { summaryOf }),
    },
    request.log,
  );
}

/** A domain error class and the problem code it is answered with (a code, or read from it). */
type Refusal<E extends Error = Error> = [
  new (...args: never[]) => E,
  ErrorCode | ((error: E) => ErrorCode),
];

/**
 * Turns the domain's refusals (the admin CLI's checks and messages) into problems, so an admin
 * sees what the operator would; any other error passes through.
 */
export const refusedAs =
  (...refusals: Refusal[]) =>
  (error: unknown): never => {
    for (const [kind, code] of refusals)
      if (error instanceof kind)
        throw new ApiError(typeof code === "function" ? code(error) : code, error.message);
    throw error;
  };

/** The security requirement of the tenant API in OpenAPI. */
export const USER_SECURITY = [{ "User-JWT": [] }];

/** Query strings of the tenant API take no unknown parameters. */
export const NO_QUERY = { type: "object", additionalProperties: false, properties: {} } as const;
