/**
 * The guide at the top of the partner API reference (OpenAPI `info.description`, Markdown):
 * what a partner needs before the first call, with links to served pages only (a partner has
 * no repository).
 */
export const PARTNER_GUIDE = `Partner systems log in with client credentials, then create and read sales orders with
every request signed by their RSA key. This page documents the partner API; tenant front ends
have [their own reference](/docs/tenant).

# Getting started

1. Get a \`client_id\` and \`client_secret\` from the integration team, and register the public
   half of an RSA key pair (2048 bits or more, X.509 \`PUBLIC KEY\` PEM).
   \`npx -p @orderline/partner-sdk orderline-partner keygen\` makes one.
2. \`POST /api/v1/auth/login\` returns a token valid for 12 hours; renew it with
   \`POST /api/v1/auth/refresh\`.
3. Send every other request (\`/api/v1/sales-orders\`, \`/api/v1/webhook-endpoints\`,
   \`/api/v1/request-log\`, \`/api/v1/events/stream\`) with \`Authorization: Bearer <token>\`,
   \`X-CLIENT-ID\`, \`X-TIMESTAMP\`, \`X-SIGNATURE-VERSION: 2\` and \`X-SIGNATURE\`.

On Node.js, \`npm install @orderline/partner-sdk\` gives a client that does all of this (login,
refresh, signing, clock correction, retries, idempotency) and the \`orderline-partner\` command
(\`npx orderline-partner --help\`). Each operation below has code samples in shell (curl +
openssl), Node (the SDK), Python (\`pip install cryptography\`) and Java (17+, \`java.net.http\`,
run with \`java Sample.java\`); each reads \`ORDERLINE_BASE_URL\`, \`ORDERLINE_CLIENT_ID\`,
\`ORDERLINE_CLIENT_SECRET\` and \`ORDERLINE_PRIVATE_KEY_FILE\`, plus \`ORDER_ID\`, \`ENDPOINT_ID\` or
\`EVENT_ID\` where the path names one, and every one of them is run against a gateway by the
gateway's own tests.

# Signing requests

\`X-SIGNATURE\` is the base64 of an RSASSA-PKCS1-v1_5 SHA-256 signature (\`SHA256withRSA\`,
\`openssl dgst -sha256 -sign\`) over a string-to-sign, UTF-8, **without a trailing newline**.

\`X-TIMESTAMP\` is the signing time in Unix seconds (\`1767225600\`); Unix milliseconds
(\`1767225600000\`) and ISO-8601 with an offset (\`2026-01-01T00:00:00Z\`) are accepted too, as
sent (the signature covers the header's exact text). It must be within 300 s of the gateway's
clock. **Every request is signed afresh, retries included**: a retry carries a new
\`X-TIMESTAMP\` and a new signature (and, for a create, the same \`Idempotency-Key\`); an exact
copy of a signed request that changes state is refused as \`request_replayed\`.

**Version 2** (send \`X-SIGNATURE-VERSION: 2\`; recommended for every new integration, the SDK's
and the CLI's default, and required for partners the integration team has moved): six lines
joined by \`\\n\`: \`v2\`, client_id, X-TIMESTAMP, the method in capitals, the path with query as
sent, and the lowercase hex SHA-256 of the exact body bytes (of nothing for a request without a
body):

\`\`\`text
v2
olc_4f9a0c1e2b3d4a5f6e7d8c9b
1767225600
POST
/api/v1/sales-orders
5f1e0c…(64 hex digits)
\`\`\`

Version 2 binds the signature to the body, path and method, so a captured request cannot be
replayed with other content.

**Version 1** (no \`X-SIGNATURE-VERSION\` header, or \`1\`): \`client_id + "|" + X-TIMESTAMP\`, e.g.
\`olc_4f9a0c1e2b3d4a5f6e7d8c9b|1767225600\`. It covers neither the body nor the path: a body
changed after signing is accepted. It stays for existing integrations; do not start with it.

\`npx orderline-partner sign\` prints the string-to-sign and the signature for any timestamp, to
compare with your own signer, and [the in-page signer](/docs/signer) signs and sends a request
from this browser (your private key stays in the page).

# Errors

Every error is \`application/problem+json\` with a stable \`code\` to branch on, a \`detail\` for
people and a \`request_id\` to quote to the integration team. A refused signature returns the
\`string_to_sign\` the gateway expected and \`hints\` (a hex-encoded signature, a key of another
size, a trailing newline, the other version's string, or, when none of these, the registered
key's fingerprint: the usual cause is a private key that is not the registered one's pair). Your refused requests of the last 7
days, with what the gateway expected, are listed by \`GET /api/v1/request-log?outcome=failed\`
(**Request log** in this page's menu; \`npx orderline-partner requests --failed\`). Retry only
\`429\` (after \`Retry-After\`) and \`503\`, and network errors.

# Idempotency

Send an \`Idempotency-Key\` (1–255 printable ASCII characters, e.g. a UUID) with each new order
and reuse it when you retry that order: the retry returns the first answer with
\`Idempotent-Replayed: true\` instead of creating a second order. A \`purchase_order_no\` is
unique per partner as well (\`409 duplicate_purchase_order\` names the existing order).

# Webhook events

The gateway POSTs signed events (\`order.created\`, \`order.accepted\`, \`order.rejected\`,
\`order.fulfilled\`, \`order.cancelled\`) to your webhook endpoints, with the order as it was right
after the event. Register, test, inspect and resend on your endpoints yourself (**Webhook
endpoints** in this page's menu; \`npx orderline-partner webhooks --help\`), or your tenant's
admins do it for you. Answer any 2xx within 10 seconds;
failures are retried with exponential backoff for 3 days; de-duplicate on
\`Orderline-Event-Id\`. Every event's payload is under **Webhooks** in this page's menu (and
under \`webhooks\` in [the OpenAPI document](/openapi/partner.json)); how to verify the
signature in Node, Python, Java and shell, and the retries, are on
[the webhooks page](/docs/webhooks).
`;
