import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EventStreams } from "../domain/events/streams.js";
import type { PartnerView } from "../domain/partners/directory.js";
import { checkedEvents, WebhookError } from "../domain/webhooks/endpoint-admin.js";
import { ALL_EVENTS } from "../domain/webhooks/event-types.js";
import {
  EVENT_STREAM_RESPONSE,
  LAST_EVENT_ID_HEADERS,
  openEventStream,
} from "../http/event-stream.js";
import { SIGNED_REQUEST_SECURITY } from "../http/openapi.js";
import { problemResponses } from "../http/schemas.js";
import { inSpan } from "../observability/tracing.js";
import { ApiError } from "../problems/api-error.js";
import type { SignedRequestAuthenticator } from "./authenticate.js";
import { EMPTY_BODY_SHA256 } from "./request-signature.js";

interface PartnerEventRoutesOptions {
  streams: EventStreams;
  authenticator: SignedRequestAuthenticator;
  /** The tenant a partner's orders go to (null: none), whose stream share it uses. */
  tenantOf: (partnerId: string) => Promise<string | null>;
}

const partners = new WeakMap<FastifyRequest, PartnerView>();

const STREAM_QUERY = {
  type: "object",
  additionalProperties: false,
  properties: {
    events: {
      type: "string",
      minLength: 1,
      maxLength: 500,
      description: "Comma-separated event types to receive (default: all), as webhooks name them",
    },
  },
} as const;

/** The `?events=` filter: the webhook endpoints' event-type check and message. */
function eventFilter(events: string | undefined): ReadonlySet<string> | undefined {
  if (events === undefined) return undefined;
  try {
    const types = checkedEvents(events.split(",").map((type) => type.trim()));
    return types.includes(ALL_EVENTS) ? undefined : new Set(types);
  } catch (error) {
    if (error instanceof WebhookError) throw new ApiError(error.code, error.message);
    throw error;
  }
}

/**
 * /api/v1/events/stream: the partner's events as server-sent events, signed like every partner
 * request: what `orderline-partner listen` forwards to a local receiver, so a partner develops
 * against webhooks without a public URL and the gateway never connects out for it.
 */
export async function partnerEventRoutes(
  app: FastifyInstance,
  { streams, authenticator, tenantOf }: PartnerEventRoutesOptions,
): Promise<void> {
  app.get<{ Querystring: { events?: string }; Headers: { "last-event-id"?: string } }>(
    "/api/v1/events/stream",
    {
      preValidation: async (request) => {
        // Authenticated before the query is looked at, like the order routes.
        const partner = await inSpan("signature.verify", () =>
          authenticator.authenticate(request.headers, {
            method: request.method,
            target: request.raw.url ?? request.url,
            bodySha256: EMPTY_BODY_SHA256,
            address: request.ip,
          }),
        );
        partners.set(request, partner);
      },
      schema: {
        tags: ["Events"],
        summary: "The partner's events, live (server-sent events)",
        description:
          "Every event the partner's webhooks carry (`order.created`, `order.accepted`, …), with the same `data:` " +
          "as a delivery's body, as it happens; `id:` is the event id. Resume with `Last-Event-ID` after a " +
          "dropped connection: the events since come first, each once. `?events=order.created,order.cancelled` " +
          "filters. Signed like order requests (version 2 signs `GET`, the path with its query, and an empty " +
          "body). Within the shares of docs/deploy.md: 5 streams per partner and 100 per tenant (its partners' " +
          "and users' together) on one instance (429 too_many_streams), 30 opens a minute (429 rate_limited); " +
          "a resume replays at most 1,000 events, then a `: replay-truncated` comment and an `id:` say the " +
          "stream goes on from now. A stream ends within seconds when its partner is disabled, its key revoked " +
          "or its secret rotated.",
        security: SIGNED_REQUEST_SECURITY,
        querystring: STREAM_QUERY,
        headers: LAST_EVENT_ID_HEADERS,
        response: { 200: EVENT_STREAM_RESPONSE, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const partner = partners.get(request);
      if (!partner) throw new Error("event stream reached without authentication");
      const types = eventFilter(request.query.events);
      // The partner's streams count against its tenant's share, beside the tenant's consoles.
      const holder = {
        tenant: (await tenantOf(partner.id)) ?? "",
        party: `partner:${partner.id}`,
      };
      await streams.countOpen(holder);
      const spec = await streams.partnerSpec(partner, request.headers["last-event-id"], types);
      const lease = streams.acquire(holder);
      const signed = {
        method: request.method,
        target: request.raw.url ?? request.url,
        bodySha256: EMPTY_BODY_SHA256,
      };
      let stop = () => {};
      const stream = openEventStream(request, reply, {
        heartbeatMs: streams.config.heartbeatSeconds * 1000,
        maxMs: streams.config.maxStreamSeconds * 1000,
        onEnd: () => stop(),
        recheckMs: streams.config.recheckMs,
        stillAllowed: (fresh) => authenticator.stillAuthenticated(request.headers, signed, fresh),
      });
      stop = streams.start(spec, stream, holder, lease);
    },
  );
}
