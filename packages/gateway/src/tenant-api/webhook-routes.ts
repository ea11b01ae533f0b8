import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebhookEndpoints } from "../domain/webhooks/endpoint-admin.js";
import { ID } from "../domain/webhooks/schemas.js";
import { webhookEndpointRoutes } from "../http/webhook-endpoint-routes.js";
import type { UserAuthenticator } from "./authenticate.js";
import { auditTenantChange, requireRole, requireUser, USER_SECURITY, userOf } from "./guard.js";

interface TenantWebhookRoutesOptions {
  webhooks: WebhookEndpoints;
  authenticator: UserAuthenticator;
}

const clientIdOf = (request: FastifyRequest) => (request.params as { client_id: string }).client_id;

/**
 * /v1/tenant/partners/{client_id}/webhook-endpoints: a tenant's admins manage the webhook
 * endpoints of their partners (the admin CLI's `webhooks` operations; partners have the same on
 * their own at /api/v1/webhook-endpoints). Another tenant's partner answers 404 like a missing
 * one; every change is logged as an audit event; secrets are answered once with
 * `Cache-Control: no-store` and never logged.
 */
export async function tenantWebhookRoutes(
  app: FastifyInstance,
  { webhooks, authenticator }: TenantWebhookRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);
  webhookEndpointRoutes(app, {
    webhooks,
    base: "/v1/tenant/partners/:client_id/webhook-endpoints",
    baseParams: { client_id: ID },
    tags: ["Tenant webhooks"],
    security: USER_SECURITY,
    guardStatuses: [400, 401, 403],
    scopeOf: (request) => {
      const context = userOf(request);
      requireRole(context, "admin", "manage webhook endpoints");
      return { clientId: clientIdOf(request), tenantId: context.tenant.id };
    },
    actorOf: (request) => `tenant admin ${userOf(request).user.email}`,
    audit: (request, action, details, summaryOf) =>
      auditTenantChange(
        request,
        userOf(request),
        action,
        { client_id: clientIdOf(request), ...details },
        "tenant webhook endpoint changed",
        undefined,
        summaryOf,
      ),
  });
}
