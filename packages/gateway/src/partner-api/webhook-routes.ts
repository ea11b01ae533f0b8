import type { FastifyInstance } from "fastify";
import type { WebhookEndpoints } from "../domain/webhooks/endpoint-admin.js";
import { SIGNED_REQUEST_SECURITY } from "../http/openapi.js";
import { webhookEndpointRoutes } from "../http/webhook-endpoint-routes.js";
import { auditPartnerChange, type PartnerTenantOf } from "./audit.js";
import { partnerOf, requireSignedPartner, type SignedRoutesOptions } from "./signed-routes.js";

type PartnerWebhookRoutesOptions = {
  webhooks: WebhookEndpoints;
  partnerTenant: PartnerTenantOf;
} & SignedRoutesOptions;

/**
 * /api/v1/webhook-endpoints: a partner manages its own webhook endpoints with signed requests,
 * the tenant API's operations (same domain service, shapes, limits and URL checks) plus firing
 * a test event. Scoped to the calling partner: another partner's endpoint or event is 404, as if
 * it did not exist. Every change is an audit event with the partner as actor.
 */
export async function partnerWebhookRoutes(
  app: FastifyInstance,
  { webhooks, partnerTenant, ...signed }: PartnerWebhookRoutesOptions,
): Promise<void> {
  requireSignedPartner(app, signed);
  webhookEndpointRoutes(app, {
    webhooks,
    base: "/api/v1/webhook-endpoints",
    baseParams: {},
    tags: ["Webhook endpoints"],
    security: SIGNED_REQUEST_SECURITY,
    guardStatuses: [400, 401, 403, 429],
    scopeOf: (request) => ({ clientId: partnerOf(request).clientId }),
    actorOf: (request) => `the partner (${partnerOf(request).clientId})`,
    audit: (request, action, details, summaryOf) =>
      auditPartnerChange(request, partnerOf(request), partnerTenant, action, details, summaryOf),
  });
}
