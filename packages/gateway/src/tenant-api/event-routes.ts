import type { FastifyInstance } from "fastify";
import type { EventStreams } from "../domain/events/streams.js";
import {
  EVENT_STREAM_RESPONSE,
  LAST_EVENT_ID_HEADERS,
  openEventStream,
} from "../http/event-stream.js";
import { problemResponses } from "../http/schemas.js";
import type { UserAuthenticator } from "./authenticate.js";
import { NO_QUERY, requireUser, USER_SECURITY, userOf } from "./guard.js";

interface TenantEventRoutesOptions {
  streams: EventStreams;
  authenticator: UserAuthenticator;
}

/** /v1/tenant/events: the console's live view of the tenant's orders and vocabulary. */
export async function tenantEventRoutes(
  app: FastifyInstance,
  { streams, authenticator }: TenantEventRoutesOptions,
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
          "gateway instance. Resumable with `Last-Event-ID` (at most 1,000 events replayed, then a " +
          "`: replay-truncated` comment and an `id:` say the stream goes on from now); never another tenant's " +
          "events. Within the shares of docs/deploy.md: 5 streams per user and 100 per tenant, its partners' " +
          "streams included, on one instance (429 too_many_streams), 30 opens a minute per user (429 " +
          "rate_limited). A stream ends within seconds when its user is disabled or its password changes.",
        security: USER_SECURITY,
        querystring: NO_QUERY,
        headers: LAST_EVENT_ID_HEADERS,
        response: { 200: EVENT_STREAM_RESPONSE, ...problemResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { user, tenant } = userOf(request);
      const holder = { tenant: tenant.id, party: `user:${user.id}` };
      await streams.countOpen(holder);
      const spec = await streams.tenantSpec(tenant.id, request.headers["last-event-id"]);
      const lease = streams.acquire(holder);
      let stop = () => {};
      const stream = openEventStream(request, reply, {
        heartbeatMs: streams.config.heartbeatSeconds * 1000,
        maxMs: streams.config.maxStreamSeconds * 1000,
        onEnd: () => stop(),
        recheckMs: streams.config.recheckMs,
        // Users are read from the store on every check: nothing cached to look past.
        stillAllowed: () =>
          authenticator.authenticate(request.headers).then(
            () => true,
            () => false,
          ),
      });
      stop = streams.start(spec, stream, holder, lease);
    },
  );
}
