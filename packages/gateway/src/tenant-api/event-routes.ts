import type { FastifyInstance } from "fastify";
import type { EventsConfig } from "../config/config.js";
import type { EventStreams } from "../domain/events/streams.js";
import {
  EVENT_STREAM_RESPONSE,
  LAST_EVENT_ID_HEADERS,
  openEventStream,
} from "../http/event-stream.js";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "./authenticate.js";
import { NO_QUERY, requireUser, USER_SECURITY, userOf } from "./guard.js";

export interface TenantEventRoutesOptions {
  streams: EventStreams;
  authenticator: UserAuthenticator;
  config: EventsConfig;
}

/** /v1/tenant/events: the console's live view of the tenant's orders and vocabulary. */
export async function tenantEventRoutes(
  app: FastifyInstance,
  { streams, authenticator, config }: TenantEventRoutesOptions,
): Promise<void> {
  requireUser(app, authenticator);

  app.get<{ Headers: { "last-event-id"?: string } }>(
    "/v1/tenant/events",
    {
      schema: {
        tags: ["Tenant events"],
        summary: "Live events of the tenant (server-sent events)",
        description:
          "Order events of the tenant's partners (`order.created`, `order.accepted`, … as webhooks name them) with " +
          '`data: {"order": <the order as GET /v1/orders lists it, right after the event>}`, and ' +
          '`vocabulary.changed` with `data: {"namespace", "language"}` when the tenant\'s words change, from any ' +
          "gateway instance. Resumable with `Last-Event-ID`; never another tenant's events. At most 5 streams per " +
          "user and 100 per tenant on one instance (429 too_many_streams).",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        headers: LAST_EVENT_ID_HEADERS,
        response: { 200: EVENT_STREAM_RESPONSE, ...problemResponses(400, 401, 429, 503) },
      },
    },
    async (request, reply) => {
      const { user, tenant } = userOf(request);
      const spec = await streams.tenantSpec(tenant.id, request.headers["last-event-id"]);
      const lease = streams.acquire({ client: `user:${user.id}`, tenant: `tenant:${tenant.id}` });
      let stop = () => {};
      const stream = openEventStream(request, reply, {
        heartbeatMs: config.heartbeatSeconds * 1000,
        maxMs: config.maxStreamSeconds * 1000,
        onEnd: () => stop(),
      });
      stop = streams.start(spec, stream, lease);
    },
  );
}
