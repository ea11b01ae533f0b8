import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type PartnerScope,
  type WebhookEndpoints,
  WebhookError,
} from "../domain/webhooks/endpoint-admin.js";
import {
  ATTEMPT,
  CHANGE_BODY,
  CREATE_BODY,
  CREATED_ENDPOINT,
  DELIVERIES_QUERY,
  ENDPOINT,
  ID,
  ROTATED_SECRET,
  TEST_SENT,
} from "../domain/webhooks/schemas.js";
import { ApiError } from "../problems/api-error.js";
import { enveloped, problemResponses } from "./schemas.js";

/**
 * Who manages webhook endpoints through an API, and how: the tenant API (an admin, on one of the
 * tenant's partners) and the partner API (a partner, on its own) mount the same operations over
 * the same domain service, differing only in path, authentication, scope and audit actor.
 */
interface WebhookEndpointSurface {
  webhooks: WebhookEndpoints;
  /** The collection's path, e.g. `/api/v1/webhook-endpoints`. */
  base: string;
  /** Schemas of `base`'s path parameters (the tenant API names the partner). */
  baseParams: Record<string, unknown>;
  tags: string[];
  security: readonly { [scheme: string]: readonly string[] }[];
  /** Problem statuses every route can answer before its own (authentication, rate limits). */
  guardStatuses: number[];
  /** Checks the caller may act (a role) and names the partner the request is on. */
  scopeOf(request: FastifyRequest): PartnerScope;
  /** Who disables an endpoint, for its disabled_reason. */
  actorOf(request: FastifyRequest): string;
  /**
   * Records a change in the audit trail; `details` never hold a secret. With `summaryOf`, it
   * updates that summary line instead of adding a row (AuditEntry.summaryOf).
   */
  audit(
    request: FastifyRequest,
    action: string,
    details: Record<string, unknown>,
    summaryOf?: string,
  ): unknown;
}

type Params = { endpoint_id: string; event_id: string };
type Req = FastifyRequest<{ Params: Params }>;

const NO_QUERY = { type: "object", additionalProperties: false, properties: {} } as const;

const refused = (error: unknown): never => {
  if (error instanceof WebhookError) throw new ApiError(error.code, error.message);
  throw error;
};

/** The route schema builder and path pieces of one surface. */
function shapes(surface: WebhookEndpointSurface) {
  const params = (...names: string[]) => {
    const properties = {
      ...surface.baseParams,
      ...Object.fromEntries(names.map((n) => [n, ID])),
    };
    const required = Object.keys(properties);
    return required.length === 0
      ? undefined
      : { type: "object", required, additionalProperties: false, properties };
  };
  const schema = (
    summary: string,
    names: string[],
    response: Record<number, unknown>,
    errors: number[],
    extra: Record<string, unknown> = {},
  ) => {
    const p = params(...names);
    return {
      tags: surface.tags,
      summary,
      security: surface.security,
      querystring: NO_QUERY,
      ...(p ? { params: p } : {}),
      response: { ...response, ...problemResponses(...surface.guardStatuses, ...errors) },
      ...extra,
    };
  };
  return { schema, one: `${surface.base}/:endpoint_id` };
}

/** Listing and reading endpoints and their delivery attempts. */
function readRoutes(app: FastifyInstance, surface: WebhookEndpointSurface): void {
  const { webhooks } = surface;
  const { schema, one } = shapes(surface);
  const list = { type: "object", required: ["data"], properties: {} } as const;
  app.get(
    surface.base,
    {
      schema: schema(
        "The partner's webhook endpoints",
        [],
        { 200: { ...list, properties: { data: { type: "array", items: ENDPOINT } } } },
        [404],
      ),
    },
    async (request) => ({ data: await webhooks.list(surface.scopeOf(request)).catch(refused) }),
  );
  app.get(
    one,
    {
      schema: schema("One webhook endpoint", ["endpoint_id"], { 200: enveloped(ENDPOINT) }, [404]),
    },
    async (request: Req) => ({
      data: await webhooks.get(surface.scopeOf(request), request.params.endpoint_id).catch(refused),
    }),
  );
  app.get(
    `${one}/deliveries`,
    {
      schema: schema(
        "The endpoint's delivery attempts, newest first",
        ["endpoint_id"],
        { 200: { ...list, properties: { data: { type: "array", items: ATTEMPT } } } },
        [404],
        { querystring: DELIVERIES_QUERY },
      ),
    },
    async (request: FastifyRequest<{ Params: Params; Querystring: { limit?: number } }>) => ({
      data: await webhooks
        .deliveries(surface.scopeOf(request), request.params.endpoint_id, request.query.limit)
        .catch(refused),
    }),
  );
}

/** Adding, changing and removing endpoints. */
function changeRoutes(app: FastifyInstance, surface: WebhookEndpointSurface): void {
  const { webhooks } = surface;
  const { schema, one } = shapes(surface);
  app.post(
    surface.base,
    {
      schema: schema(
        "Add a webhook endpoint; its signing secret is answered once",
        [],
        { 201: enveloped(CREATED_ENDPOINT) },
        [404, 413, 415, 422],
        { body: CREATE_BODY },
      ),
    },
    async (request: FastifyRequest<{ Body: { url: string; events: string[] } }>, reply) => {
      const created = await webhooks.create(surface.scopeOf(request), request.body).catch(refused);
      await surface.audit(request, "webhook_endpoint_created", {
        endpoint_id: created.id,
        url: created.url,
        events: created.events,
      });
      reply.code(201).header("cache-control", "no-store");
      return { data: created };
    },
  );
  app.patch(
    one,
    {
      schema: schema(
        "Change an endpoint's URL or events, or disable or enable it",
        ["endpoint_id"],
        { 200: enveloped(ENDPOINT) },
        [404, 413, 415],
        { body: CHANGE_BODY },
      ),
    },
    async (
      request: FastifyRequest<{
        Params: Params;
        Body: { url?: string; events?: string[]; enabled?: boolean };
      }>,
    ) => {
      const { endpoint_id } = request.params;
      const scope = surface.scopeOf(request);
      const updated = await webhooks
        .update(scope, endpoint_id, request.body, surface.actorOf(request))
        .catch(refused);
      await surface.audit(request, "webhook_endpoint_changed", {
        endpoint_id,
        changed: Object.keys(request.body),
      });
      return { data: updated };
    },
  );
  app.delete(
    one,
    {
      schema: schema("Remove an endpoint with its queued deliveries", ["endpoint_id"], {}, [404], {
        response: { 204: { type: "null" }, ...problemResponses(...surface.guardStatuses, 404) },
      }),
    },
    async (request: Req, reply) => {
      const { endpoint_id } = request.params;
      await webhooks.remove(surface.scopeOf(request), endpoint_id).catch(refused);
      await surface.audit(request, "webhook_endpoint_removed", { endpoint_id });
      return reply.code(204).send();
    },
  );
}

/** Rotating the secret, resending an event, firing a test event. */
function actionRoutes(app: FastifyInstance, surface: WebhookEndpointSurface): void {
  const { webhooks } = surface;
  const { schema, one } = shapes(surface);
  app.post(
    `${one}/secret`,
    {
      schema: schema(
        "Rotate the signing secret: the new one is answered once; the old one keeps signing beside it for the grace period",
        ["endpoint_id"],
        { 200: enveloped(ROTATED_SECRET) },
        [404],
      ),
    },
    async (request: Req, reply) => {
      const { endpoint_id } = request.params;
      const rotated = await webhooks
        .rotateSecret(surface.scopeOf(request), endpoint_id)
        .catch(refused);
      await surface.audit(request, "webhook_endpoint_secret_rotated", { endpoint_id });
      reply.header("cache-control", "no-store");
      return { data: rotated };
    },
  );
  app.post(
    `${one}/deliveries/:event_id/resend`,
    {
      schema: schema(
        "Deliver an event to the endpoint again, now, with a fresh retry window (a test event: once, within the test-send rate)",
        ["endpoint_id", "event_id"],
        { 202: { type: "null" } },
        [404, 429],
      ),
    },
    async (request: Req, reply) => {
      const { endpoint_id, event_id } = request.params;
      await webhooks.resend(surface.scopeOf(request), endpoint_id, event_id).catch(refused);
      await surface.audit(request, "webhook_event_resent", { endpoint_id, event_id });
      return reply.code(202).send();
    },
  );
  app.post(
    `${one}/test`,
    {
      schema: schema(
        "Fire a webhook.test event at the endpoint now: queued and signed like any event, attempted once (never retried); rate-limited per partner and per endpoint",
        ["endpoint_id"],
        { 201: enveloped(TEST_SENT) },
        [404, 409, 429],
      ),
    },
    async (request: Req, reply) => {
      const { endpoint_id } = request.params;
      const { event_id, summary } = await webhooks
        .sendTest(surface.scopeOf(request), endpoint_id)
        .catch(refused);
      // One line per endpoint and day, its count kept up to date: tests do not bury the trail.
      await surface.audit(request, "webhook_test_sent", summary.details, summary.key);
      return reply.code(201).send({ data: { event_id } });
    },
  );
}

/** Every webhook endpoint operation on one surface (the plugin calling this owns the auth hook). */
export function webhookEndpointRoutes(app: FastifyInstance, surface: WebhookEndpointSurface): void {
  readRoutes(app, surface);
  changeRoutes(app, surface);
  actionRoutes(app, surface);
}
