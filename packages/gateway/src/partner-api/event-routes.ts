import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EventsConfig } from "../config/config.js";
import type { EventStreams } from "../domain/events/streams.js";
import type { PartnerView } from "../domain/partners/directory.js";
import { checkedEvents, WebhookError } from "../domain/webhooks/endpoint-admin.js";
import { ALL_EVENTS } from "../domain/webhooks/event-types.js";
import { ApiError } from "../http/errors.js";
import {
  EVENT_STREAM_RESPONSE,
  LAST_EVENT_ID_HEADERS,
  openEventStream,
} from "../http/event-stream.js";
import { SIGNED_REQUEST_SECURITY } from "../http/openapi.js";
import { problemResponses } from "../http/schemas.js";
import { inSpan } from "../observability/tracing.js";
import type { SignedRequestAuthenticator } from "./authenticate.js";
import { EMPTY_BODY_SHA256 } from "./request-signature.js";

export interface PartnerEventRoutesOptions {
  streams: EventStreams;
  authenticator: SignedRequestAuthenticator;
  config: EventsConfig;
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
  { streams, authenticator, config }: PartnerEventRoutesOptions,
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
            parsedBody: undefined,
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
          "body). At most 5 streams per partner on one instance (429 too_many_streams).",
        security: SIGNED_REQUEST_SECURITY,
        querystring: STREAM_QUERY,
        headers: LAST_EVENT_ID_HEADERS,
        response: { 200: EVENT_STREAM_RESPONSE, ...problemResponses(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => {
      const partner = partners.get(request);
      if (!partner) throw new Error("event stream reached without authentication");
      const types = eventFilter(request.query.events);
      const spec = await streams.partnerSpec(partner, request.headers["last-event-id"], types);
      const lease = streams.acquire({ client: `partner:${partner.id}` });
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
