import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { apiReference } from "./reference/plugin.js";
import { WEBHOOKS_TAG } from "./reference/webhooks.js";

/** The seed's four security schemes; order operations require all four together. */
export const SIGNED_REQUEST_SECURITY = [
  { "X-CLIENT-ID": [], "X-TIMESTAMP": [], "X-SIGNATURE": [], "JWT-auth": [] },
];

/** `webhooks`: the OpenAPI `webhooks` the partner API sends (reference/webhooks.ts). */
export async function installOpenApi(
  app: FastifyInstance,
  webhooks: Record<string, unknown> = {},
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      // A plain JSON document (reference/webhooks.ts); the plugin copies it as it is.
      webhooks: webhooks as Record<string, object>,
      info: {
        title: "Orderline partner order gateway",
        version: "1.0.0",
        license: { name: "Apache-2.0", identifier: "Apache-2.0" },
        description:
          "Partners log in with client credentials for a 12-hour JWT and create sales orders with every request " +
          "signed by their RSA key: X-SIGNATURE = base64(SHA256withRSA(client_id + '|' + X-TIMESTAMP)). " +
          "Errors are application/problem+json with a stable `code`.",
      },
      tags: [
        { name: "Authentication", description: "Client-credential login and token refresh" },
        { name: "Sales Orders", description: "Create and read sales orders (signed requests)" },
        {
          name: "Webhook endpoints",
          description:
            "The partner's own webhook endpoints (signed requests): register, test, inspect deliveries, resend, rotate secrets",
        },
        {
          name: "Request log",
          description: "The partner's own refused requests of the last 7 days, to debug a refusal",
        },
        {
          name: "Tenant users",
          description: "Tenant users' sign-in, token refresh and profile (/v1, user tokens)",
        },
        {
          name: "Tenant vocabulary",
          description:
            "The tenant's overrides of the front end's words, per namespace and language",
        },
        { name: "Tenant orders", description: "The tenant's users read its partners' orders" },
        {
          name: "Events",
          description:
            "The partner's events as a live server-sent event stream (what `orderline-partner listen` reads)",
        },
        {
          name: "Tenant events",
          description: "The tenant's live order and vocabulary events for the console",
        },
        {
          name: "Tenant webhooks",
          description:
            "Tenant admins manage their partners' webhook endpoints: signed order events POSTed to the partner",
        },
        WEBHOOKS_TAG,
      ],
      components: {
        securitySchemes: {
          "X-CLIENT-ID": {
            type: "apiKey",
            in: "header",
            name: "X-CLIENT-ID",
            description: "The partner's client_id",
          },
          "X-TIMESTAMP": {
            type: "apiKey",
            in: "header",
            name: "X-TIMESTAMP",
            description:
              "Unix seconds (ms and ISO-8601 with offset accepted), within ±300 s of server time",
          },
          "X-SIGNATURE": {
            type: "apiKey",
            in: "header",
            name: "X-SIGNATURE",
            description:
              "base64 SHA256withRSA signature of `client_id|X-TIMESTAMP` (version 1), or of the version 2 " +
              "string-to-sign (method, path, timestamp, body SHA-256) with the header `X-SIGNATURE-VERSION: 2`",
          },
          "JWT-auth": { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          // What the gateway sends to the partner's endpoints (the document's `webhooks`).
          "Orderline-Signature": {
            type: "apiKey",
            in: "header",
            name: "Orderline-Signature",
            description:
              '`t=<unix seconds>,v1=<hex HMAC-SHA256>` over `t + "." + raw body` with the endpoint\'s `whsec_…` secret: the receiver verifies it (/docs/webhooks)',
          },
          "User-JWT": {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description:
              "A tenant user's token from POST /v1/auth/login; partner tokens are refused here",
          },
        },
      },
    },
  });
  await app.register(apiReference);
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
