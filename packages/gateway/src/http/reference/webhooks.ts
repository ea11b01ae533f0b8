import { CLIENT_ID, ORDER } from "./examples.js";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI and JSON Schema are open-ended JSON.
type Json = any;

/** What each event means, for the reference (the full page is /docs/webhooks). */
const MEANING: Record<string, string> = {
  "order.created": "One of your orders was stored (status `received`).",
  "order.accepted": "The tenant accepted one of your orders.",
  "order.rejected": "The tenant rejected one of your orders; `data.change.reason` says why.",
  "order.fulfilled": "The tenant fulfilled (shipped) one of your orders.",
  "order.cancelled":
    "You or the tenant cancelled one of your orders; `data.change.reason` says why.",
  "webhook.test":
    "A test event you fired at one endpoint (`POST /api/v1/webhook-endpoints/{id}/test`), whatever types it subscribes to. It carries no order: check that your receiver verifies its signature and answers 2xx.",
};

/** The way each status is reached in the examples: from, who, why. */
const EXAMPLE_PATH: Record<
  string,
  { from: string[]; by: "tenant_user" | "partner"; reason: string | null }
> = {
  accepted: { from: ["received"], by: "tenant_user", reason: null },
  rejected: { from: ["received"], by: "tenant_user", reason: "Out of stock" },
  fulfilled: { from: ["received", "accepted"], by: "tenant_user", reason: null },
  cancelled: { from: ["received"], by: "partner", reason: "Customer withdrew the order" },
};

const minutes = (n: number) => new Date(Date.parse(ORDER.created_at) + n * 60_000).toISOString();

/** A delivery body of `type`, as the gateway would send it for the reference's example order. */
function exampleEvent(type: string): Json {
  if (type === "webhook.test") {
    return {
      id: "evt_01943f2d-1b2c-7d4e-8f90-a1b2c3d4e5f6",
      type,
      created_at: minutes(30),
      data: {
        endpoint_id: "we_5b0c7d3e9a1f4e2d8c6b7a90",
        message:
          "A test event fired through the API: it carries no order. Verify its signature like any delivery.",
      },
    };
  }
  const creation = {
    from: null,
    to: "received",
    at: ORDER.created_at,
    reason: null,
    actor: { type: "partner", name: CLIENT_ID },
  };
  if (type === "order.created") {
    return {
      id: "evt_01943f2a-7c1e-7b3d-9f0a-2c8d7e4b1a10",
      type,
      created_at: ORDER.created_at,
      data: { order: { ...ORDER, history: [creation] } },
    };
  }
  const status = type.slice("order.".length);
  const path = EXAMPLE_PATH[status] ?? { from: ["received"], by: "tenant_user", reason: null };
  const steps = [...path.from, status];
  const history: Json[] = [creation];
  for (let i = 1; i < steps.length; i++) {
    const last = i === steps.length - 1;
    history.push({
      from: steps[i - 1],
      to: steps[i],
      at: minutes(20 * i),
      reason: last ? path.reason : null,
      actor:
        path.by === "partner" && last
          ? { type: "partner", name: CLIENT_ID }
          : { type: "user", name: null },
    });
  }
  const at = minutes(20 * (steps.length - 1));
  return {
    id: `evt_01943f2a-7c1e-7b3d-9f0a-2c8d7e4b1a1${steps.length}`,
    type,
    created_at: at,
    data: {
      order: { ...ORDER, status, version: steps.length, updated_at: at, history },
      change: { from: steps.at(-2), to: status, reason: path.reason, by: path.by },
    },
  };
}

const HEADERS: Json[] = [
  {
    name: "Orderline-Signature",
    in: "header",
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256>`: HMAC-SHA256 with your `whsec_…` secret over `t + "." + raw body`; one `v1` per secret during a rotation. Verify it before trusting the body ([how](/docs/webhooks)).',
    schema: { type: "string", pattern: "^t=\\d+(,v1=[0-9a-f]{64})+$" },
  },
  {
    name: "Orderline-Event-Id",
    in: "header",
    required: true,
    description: "The event's `id`: the same on every retry and resend; de-duplicate on it",
    schema: { type: "string" },
  },
  {
    name: "Orderline-Event-Type",
    in: "header",
    required: true,
    description: "The event's `type`",
    schema: { type: "string" },
  },
];

export const WEBHOOKS_TAG = {
  name: "Webhooks",
  description:
    "Events the gateway POSTs to your webhook endpoints, signed with the endpoint's secret. Events, payloads, verification in four languages and retries: [the webhooks guide](/docs/webhooks).",
};

/**
 * The OpenAPI 3.1 `webhooks` of the partner API: one entry per event type, with the JSON Schema
 * its body is sent with (`schemas`, from domain/webhooks/event-payload.ts) and an example.
 */
export function webhooksDocument(schemas: Record<string, Json>): Json {
  return Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `${type.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase())}Event`,
          summary: type,
          description: type.startsWith("order.")
            ? `${MEANING[type] ?? ""} The order is as \`GET /api/v1/sales-orders/{id}\` showed it right after the event.`
            : (MEANING[type] ?? ""),
          tags: [WEBHOOKS_TAG.name],
          // The receiver checks the gateway's signature (the header is also a parameter).
          security: [{ "Orderline-Signature": [] }],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { "application/json": { schema, example: exampleEvent(type) } },
          },
          responses: {
            "2XX": {
              description: "Received: any 2xx within 10 seconds ends the event's deliveries",
            },
            default: {
              description:
                "Anything else, or no answer within 10 seconds: retried with exponential backoff for up to 3 days",
            },
          },
        },
      },
    ]),
  );
}
