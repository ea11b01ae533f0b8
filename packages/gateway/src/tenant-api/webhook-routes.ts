import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_URL_LENGTH } from "../domain/webhooks/address-guard.js";
import {
  MAX_ATTEMPTS_LISTED,
  type PartnerScope,
  type WebhookEndpoints,
  WebhookError,
} from "../domain/webhooks/endpoint-admin.js";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "../domain/webhooks/event-types.js";
import { ApiError } from "../http/errors.js";
import { enveloped, problemResponses } from "../http/schemas.js";
import type { UserAuthenticator, UserContext } from "./authenticate.js";
import {
  auditTenantChange,
  NO_QUERY,
  refusedAs,
  requireRole,
  requireUser,
  USER_SECURITY,
  userOf,
} from "./guard.js";

const TAGS = ["Tenant webhooks"];
const BASE = "/v1/tenant/partners/:client_id/webhook-endpoints";

const ID = { type: "string", minLength: 1, maxLength: 64 } as const;
const CLIENT_PARAMS = {
  type: "object",
  required: ["client_id"],
  additionalProperties: false,
  properties: { client_id: ID },
} as const;
const ENDPOINT_PARAMS = {
  type: "object",
  required: ["client_id", "endpoint_id"],
  additionalProperties: false,
  properties: { client_id: ID, endpoint_id: ID },
} as const;
const URL_FIELD = {
  type: "string",
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description:
    "Where deliveries are POSTed: http(s), no credentials; private and loopback addresses only when the gateway allows them",
} as const;
// Any string here: an unknown type gets the catalogue's webhook_events_invalid with the list.
const EVENTS_FIELD = {
  type: "array",
  minItems: 1,
  maxItems: 16,
  items: { type: "string", minLength: 1, maxLength: 64 },
  description: `Event types to receive (${WEBHOOK_EVENT_TYPES.join(", ")}), or ["${ALL_EVENTS}"] for all`,
} as const;
const TIME = { type: "string", format: "date-time" } as const;
const TIME_OR_NULL = { type: ["string", "null"], format: "date-time" } as const;
const ENDPOINT_PROPERTIES = {
  id: { type: "string", description: "we_…" },
  url: { type: "string" },
  events: { type: "array", items: { type: "string" } },
  enabled: { type: "boolean" },
  disabled_reason: {
    type: ["string", "null"],
    description: "Why the endpoint is disabled: by whom, or after how long of failed deliveries",
  },
  created_at: TIME,
  updated_at: TIME,
  last_success_at: TIME_OR_NULL,
  failing_since: {
    ...TIME_OR_NULL,
    description: "The first failed attempt since the last success; null while deliveries succeed",
  },
} as const;
const ENDPOINT_REQUIRED = Object.keys(ENDPOINT_PROPERTIES);
const ENDPOINT = {
  type: "object",
  required: ENDPOINT_REQUIRED,
  properties: ENDPOINT_PROPERTIES,
} as const;
const SECRET = {
  type: "string",
  description: "whsec_…: shown once; sign-check deliveries with it (see Webhooks in api.md)",
} as const;
const ATTEMPT = {
  type: "object",
  required: [
    "id",
    "event_id",
    "event_type",
    "attempt",
    "status",
    "response_status",
    "duration_ms",
    "error",
    "attempted_at",
  ],
  properties: {
    id: { type: "string" },
    event_id: { type: "string", description: "evt_…, as in Orderline-Event-Id" },
    event_type: { type: "string" },
    attempt: { type: "integer", description: "1 for the first attempt of the event" },
    status: { type: "string", enum: ["succeeded", "failed"] },
    response_status: { type: ["integer", "null"], description: "null: no HTTP response" },
    duration_ms: { type: "integer" },
    error: { type: ["string", "null"] },
    attempted_at: TIME,
  },
} as const;

type EndpointParams = { client_id: string; endpoint_id: string };

export interface TenantWebhookRoutesOptions {
  webhooks: WebhookEndpoints;
  authenticator: UserAuthenticator;
}

/**
 * /v1/tenant/partners/{client_id}/webhook-endpoints: a tenant's admins manage the webhook
 * endpoints of their partners (the admin CLI's `webhooks` operations). Another tenant's partner
 * answers 404 like a missing one; every change is logged as an audit event; secrets are answered
 * once with `Cache-Control: no-store` and never logged.
 */
export async function tenantWebhookRoutes(
  app: FastifyInstance,
  { webhooks, authenticator }: TenantWebhookRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  const admin = (request: FastifyRequest<{ Params: { client_id: string } }>) => {
    const context = userOf(request);
    requireRole(context, "admin", "manage webhook endpoints");
    const scope: PartnerScope = { clientId: request.params.client_id, tenantId: context.tenant.id };
    return { context, scope };
  };
  const refused = refusedAs([WebhookError, (error) => (error as WebhookError).code]);
  const schema = (
    summary: string,
    params: object,
    response: Record<number, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    tags: TAGS,
    summary,
    security: USER_SECURITY,
    querystring: NO_QUERY,
    params,
    response,
    ...extra,
  });

  app.get<{ Params: { client_id: string } }>(
    BASE,
    {
      schema: schema("The partner's webhook endpoints (tenant admins)", CLIENT_PARAMS, {
        200: {
          type: "object",
          required: ["data"],
          properties: { data: { type: "array", items: ENDPOINT } },
        },
        ...problemResponses(400, 401, 403, 404),
      }),
    },
    async (request) => {
      const { scope } = admin(request);
      return { data: await webhooks.list(scope).catch(refused) };
    },
  );

  app.post<{ Params: { client_id: string }; Body: { url: string; events: string[] } }>(
    BASE,
    {
      schema: schema(
        "Add a webhook endpoint; its signing secret is answered once",
        CLIENT_PARAMS,
        {
          201: enveloped({
            type: "object",
            required: [...ENDPOINT_REQUIRED, "secret"],
            properties: { ...ENDPOINT_PROPERTIES, secret: SECRET },
          }),
          ...problemResponses(400, 401, 403, 404, 413, 415, 422),
        },
        {
          body: {
            type: "object",
            required: ["url", "events"],
            additionalProperties: false,
            properties: { url: URL_FIELD, events: EVENTS_FIELD },
          },
        },
      ),
    },
    async (request, reply) => {
      const { context, scope } = admin(request);
      const created = await webhooks.create(scope, request.body).catch(refused);
      await auditTenantChange(request, context, "webhook_endpoint_created", {
        client_id: scope.clientId,
        endpoint_id: created.id,
        url: created.url,
        events: created.events,
      });
      reply.code(201).header("cache-control", "no-store");
      return { data: created };
    },
  );

  app.patch<{
    Params: EndpointParams;
    Body: { url?: string; events?: string[]; enabled?: boolean };
  }>(
    `${BASE}/:endpoint_id`,
    {
      schema: schema(
        "Change an endpoint's URL or events, or disable or enable it",
        ENDPOINT_PARAMS,
        { 200: enveloped(ENDPOINT), ...problemResponses(400, 401, 403, 404, 413, 415) },
        {
          body: {
            type: "object",
            additionalProperties: false,
            minProperties: 1,
            properties: {
              url: URL_FIELD,
              events: EVENTS_FIELD,
              enabled: {
                type: "boolean",
                description: "Enabling also clears the failure streak; queued deliveries resume",
              },
            },
          },
        },
      ),
    },
    async (request) => {
      const { context, scope } = admin(request);
      const updated = await webhooks
        .update(
          scope,
          request.params.endpoint_id,
          request.body,
          `tenant admin ${context.user.email}`,
        )
        .catch(refused);
      await auditTenantChange(request, context, "webhook_endpoint_changed", {
        client_id: scope.clientId,
        endpoint_id: updated.id,
        changed: Object.keys(request.body),
      });
      return { data: updated };
    },
  );

  app.delete<{ Params: EndpointParams }>(
    `${BASE}/:endpoint_id`,
    {
      schema: schema("Remove an endpoint with its queued deliveries", ENDPOINT_PARAMS, {
        204: { type: "null" },
        ...problemResponses(400, 401, 403, 404),
      }),
    },
    async (request, reply) => {
      const { context, scope } = admin(request);
      await webhooks.remove(scope, request.params.endpoint_id).catch(refused);
      await auditTenantChange(request, context, "webhook_endpoint_removed", {
        client_id: scope.clientId,
        endpoint_id: request.params.endpoint_id,
      });
      return reply.code(204).send();
    },
  );

  app.post<{ Params: EndpointParams }>(
    `${BASE}/:endpoint_id/secret`,
    {
      schema: schema(
        "Rotate the signing secret: the new one is answered once; the old one keeps signing beside it for the grace period",
        ENDPOINT_PARAMS,
        {
          200: enveloped({
            type: "object",
            required: ["secret", "previous_valid_until"],
            properties: {
              secret: SECRET,
              previous_valid_until: {
                ...TIME_OR_NULL,
                description: "Until when deliveries also carry a signature with the old secret",
              },
            },
          }),
          ...problemResponses(400, 401, 403, 404),
        },
      ),
    },
    async (request, reply) => {
      const { context, scope } = admin(request);
      const rotated = await webhooks.rotateSecret(scope, request.params.endpoint_id).catch(refused);
      await auditTenantChange(request, context, "webhook_endpoint_secret_rotated", {
        client_id: scope.clientId,
        endpoint_id: request.params.endpoint_id,
      });
      reply.header("cache-control", "no-store");
      return { data: rotated };
    },
  );

  app.get<{ Params: EndpointParams; Querystring: { limit?: number } }>(
    `${BASE}/:endpoint_id/deliveries`,
    {
      schema: {
        ...schema("The endpoint's delivery attempts, newest first", ENDPOINT_PARAMS, {
          200: {
            type: "object",
            required: ["data"],
            properties: { data: { type: "array", items: ATTEMPT } },
          },
          ...problemResponses(400, 401, 403, 404),
        }),
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            limit: { type: "integer", minimum: 1, maximum: MAX_ATTEMPTS_LISTED, default: 20 },
          },
        },
      },
    },
    async (request) => {
      const { scope } = admin(request);
      return {
        data: await webhooks
          .deliveries(scope, request.params.endpoint_id, request.query.limit)
          .catch(refused),
      };
    },
  );

  app.post<{ Params: EndpointParams & { event_id: string } }>(
    `${BASE}/:endpoint_id/deliveries/:event_id/resend`,
    {
      schema: schema(
        "Deliver an event to the endpoint again, now, with a fresh retry window",
        {
          type: "object",
          required: ["client_id", "endpoint_id", "event_id"],
          additionalProperties: false,
          properties: { client_id: ID, endpoint_id: ID, event_id: ID },
        },
        { 202: { type: "null" }, ...problemResponses(400, 401, 403, 404) },
      ),
    },
    async (request, reply) => {
      const { context, scope } = admin(request);
      const { endpoint_id, event_id } = request.params;
      await webhooks.resend(scope, endpoint_id, event_id).catch(refused);
      await auditTenantChange(request, context, "webhook_event_resent", {
        client_id: scope.clientId,
        endpoint_id,
        event_id,
      });
      return reply.code(202).send();
    },
  );
}
