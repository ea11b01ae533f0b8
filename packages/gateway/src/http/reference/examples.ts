/**
 * Realistic examples and operation ids for the API reference, keyed by "METHOD /path" as the
 * OpenAPI document names operations. Kept apart from the route schemas, which validate; these
 * only explain.
 */

export const OPERATION_IDS: Record<string, string> = {
  "POST /api/v1/auth/login": "login",
  "POST /api/v1/auth/refresh": "refreshToken",
  "GET /.well-known/jwks.json": "getTokenKeys",
  "POST /api/v1/sales-orders": "createSalesOrder",
  "GET /api/v1/sales-orders": "listSalesOrders",
  "GET /api/v1/sales-orders/{id}": "getSalesOrder",
  "POST /api/v1/sales-orders/{id}/cancel": "cancelSalesOrder",
  "POST /v1/auth/login": "userLogin",
  "POST /v1/auth/refresh": "userRefreshToken",
  "GET /v1/user/profile": "getProfile",
  "PATCH /v1/user/profile": "updateProfile",
  "GET /v1/tenant/i18n-config": "getI18nConfig",
  "GET /v1/tenant/i18n-config/{namespace}": "getVocabulary",
  "PUT /v1/tenant/i18n-config/{namespace}": "replaceVocabulary",
  "GET /v1/orders": "listTenantOrders",
  "GET /v1/orders/{id}": "getTenantOrder",
  "POST /v1/orders/{id}/accept": "acceptTenantOrder",
  "POST /v1/orders/{id}/reject": "rejectTenantOrder",
  "POST /v1/orders/{id}/fulfil": "fulfilTenantOrder",
  "POST /v1/orders/{id}/cancel": "cancelTenantOrder",
  "GET /v1/tenant/partners/{client_id}/webhook-endpoints": "listWebhookEndpoints",
  "POST /v1/tenant/partners/{client_id}/webhook-endpoints": "createWebhookEndpoint",
  "PATCH /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}": "updateWebhookEndpoint",
  "DELETE /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}": "deleteWebhookEndpoint",
  "POST /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}/secret":
    "rotateWebhookSecret",
  "GET /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}/deliveries":
    "listWebhookDeliveries",
  "POST /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}/deliveries/{event_id}/resend":
    "resendWebhookEvent",
  "GET /api/v1/events/stream": "streamEvents",
  "GET /v1/tenant/events": "streamTenantEvents",
  "GET /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}": "getWebhookEndpoint",
  "POST /v1/tenant/partners/{client_id}/webhook-endpoints/{endpoint_id}/test":
    "testWebhookEndpoint",
  // A partner's own endpoints: the same operations, so the same ids (another document).
  "GET /api/v1/webhook-endpoints": "listWebhookEndpoints",
  "POST /api/v1/webhook-endpoints": "createWebhookEndpoint",
  "GET /api/v1/webhook-endpoints/{endpoint_id}": "getWebhookEndpoint",
  "PATCH /api/v1/webhook-endpoints/{endpoint_id}": "updateWebhookEndpoint",
  "DELETE /api/v1/webhook-endpoints/{endpoint_id}": "deleteWebhookEndpoint",
  "POST /api/v1/webhook-endpoints/{endpoint_id}/secret": "rotateWebhookSecret",
  "GET /api/v1/webhook-endpoints/{endpoint_id}/deliveries": "listWebhookDeliveries",
  "POST /api/v1/webhook-endpoints/{endpoint_id}/deliveries/{event_id}/resend": "resendWebhookEvent",
  "POST /api/v1/webhook-endpoints/{endpoint_id}/test": "testWebhookEndpoint",
  "GET /api/v1/request-log": "listRefusedRequests",
};

export const CLIENT_ID = "olc_4f9a0c1e2b3d4a5f6e7d8c9b";
const TOKEN =
  "eyJhbGciOiJFZERTQSIsImtpZCI6ImtfMjAyNi0wMSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJvcmRlcmxpbmUtZ2F0ZXdheSIsInN1YiI6Im9sY180ZjlhMGMxZTJiM2Q0YTVmNmU3ZDhjOWIiLCJleHAiOjE3NjcyNjg4MDB9.Vb1n2pQ0x8f3uVYxg1lq4pJ0m5m9d3K0r7yJ2cH8q1wXr2Zk6b5Qe1t0Ww3Ue9x4jT8mS2yN6aR0cL5vD7gBw";

const ORDER_INPUT = {
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Dana Sales",
  address: "1 Harbour Road, Springfield",
  purchase_order_no: "PO-2026-000123",
  products: [
    { product_code: "SKU-1001", quantity: 3, uom: "EA", unit_price: 12.5 },
    { product_code: "SKU-2002", quantity: 1.5, uom: "KG", notes: "keep cold" },
  ],
};

export const ORDER = {
  id: "01943f2a-7c1e-7b3d-9f0a-2c8d7e4b1a03",
  order_number: "SO-00000042",
  status: "received",
  client_id: CLIENT_ID,
  purchase_order_no: "PO-2026-000123",
  currency: "EUR",
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Dana Sales",
  address: "1 Harbour Road, Springfield",
  products: [
    {
      line_no: 1,
      product_code: "SKU-1001",
      quantity: 3,
      uom: "EA",
      unit_price: 12.5,
      notes: null,
    },
    {
      line_no: 2,
      product_code: "SKU-2002",
      quantity: 1.5,
      uom: "KG",
      unit_price: null,
      notes: "keep cold",
    },
  ],
  created_at: "2026-01-15T09:00:00.000Z",
  version: 1,
  updated_at: "2026-01-15T09:00:00.000Z",
};

const CANCELLED_ORDER = {
  ...ORDER,
  status: "cancelled",
  version: 2,
  updated_at: "2026-01-15T09:20:00.000Z",
  history: [
    {
      from: null,
      to: "received",
      at: "2026-01-15T09:00:00.000Z",
      reason: null,
      actor: { type: "partner", name: CLIENT_ID },
    },
    {
      from: "received",
      to: "cancelled",
      at: "2026-01-15T09:20:00.000Z",
      reason: "Customer withdrew the order",
      actor: { type: "partner", name: CLIENT_ID },
    },
  ],
};

const TOKEN_RESPONSE = { token: TOKEN, expired_at: 1767268800 };
const REQUEST_ID = "6f1c2a9e-3b7d-4f0e-9a51-2c8d7e4b1a03";

const problem = (code: string, status: number, title: string, detail: string, extra = {}) => ({
  type: `urn:orderline:problem:${code}`,
  title,
  status,
  detail,
  code,
  request_id: REQUEST_ID,
  ...extra,
});

/** One typical problem per status, shown for every operation that can answer it. */
export const PROBLEM_EXAMPLES: Record<string, unknown> = {
  "400": problem(
    "validation_failed",
    400,
    "The request is not valid",
    "body /products/0/quantity must be > 0.",
    { errors: [{ in: "body", pointer: "/products/0/quantity", message: "must be > 0" }] },
  ),
  "401": problem(
    "signature_invalid",
    401,
    "X-SIGNATURE does not verify",
    "X-SIGNATURE is not a SHA256withRSA signature of string_to_sign by an active key of this partner. The signature verifies for string_to_sign followed by a newline: sign the string without a trailing newline (printf '%s' rather than echo).",
    {
      signature_version: 1,
      string_to_sign: `${CLIENT_ID}|1767225600`,
      hints: [
        {
          code: "trailing_newline",
          detail:
            "The signature verifies for string_to_sign followed by a newline: sign the string without a trailing newline (printf '%s' rather than echo).",
        },
      ],
    },
  ),
  "403": problem(
    "partner_disabled",
    403,
    "The partner is disabled",
    "This partner is disabled; contact the integration team.",
  ),
  "404": problem(
    "order_not_found",
    404,
    "No such sales order",
    "No sales order with id '01943f2a-0000-7000-8000-000000000000' for this partner.",
  ),
  "409": problem(
    "duplicate_purchase_order",
    409,
    "An order with this purchase_order_no already exists",
    "Order SO-00000042 (id 01943f2a-7c1e-7b3d-9f0a-2c8d7e4b1a03) already has purchase_order_no 'PO-2026-000123'.",
    {
      existing_order: {
        id: ORDER.id,
        order_number: ORDER.order_number,
        created_at: ORDER.created_at,
      },
    },
  ),
  "413": problem(
    "payload_too_large",
    413,
    "The request body is too large",
    "The request body exceeds 1 MiB.",
  ),
  "415": problem(
    "unsupported_media_type",
    415,
    "Unsupported content type",
    "Send the body as 'Content-Type: application/json'.",
  ),
  "422": problem(
    "idempotency_key_mismatch",
    422,
    "The Idempotency-Key was used with a different body",
    "This Idempotency-Key was already used with a different request body; use a new key for a new order.",
  ),
  "431": problem(
    "headers_too_large",
    431,
    "The request headers are too large",
    "The request headers exceed 16 KiB.",
  ),
  "429": problem(
    "rate_limited",
    429,
    "Too many requests for this client",
    "More than 6000 requests in 60 s for this client; retry in 12 s.",
    { retry_after: 12 },
  ),
};

const WEBHOOK_ENDPOINT = {
  id: "we_5b0c7d3e9a1f4e2d8c6b7a90",
  url: "https://erp.acme.example/orderline/webhooks",
  events: ["order.created", "order.accepted", "order.rejected"],
  enabled: true,
  disabled_reason: null,
  created_at: "2026-01-15T09:00:00.000Z",
  updated_at: "2026-01-15T09:00:00.000Z",
  last_success_at: "2026-01-15T09:20:00.412Z",
  failing_since: null,
};
const WEBHOOK_SECRET = "whsec_c2lnbmluZy1zZWNyZXQtZXhhbXBsZS12YWx1ZS0zMmI";

/** What an event stream sends: its start, one event, a heartbeat. */
const EVENT_STREAM_EXAMPLE = [
  "retry: 2000",
  ": stream open",
  "",
  "id: evt_01943f2c-8e1a-7c3d-9b2e-5f60718293a4",
  "",
  "event: order.created",
  "id: evt_01943f2d-1b2c-7d4e-8f5a-6b7c8d9e0f1a",
  'data: {"id":"evt_01943f2d-1b2c-7d4e-8f5a-6b7c8d9e0f1a","type":"order.created","created_at":"2026-01-15T09:20:00.000Z","data":{"order":{"id":"01943f2a-…","order_number":"SO-00000042","status":"received","…":"…"}}}',
  "",
  ": heartbeat",
  "",
].join("\n");

/** Request and success examples per operation id. */
export const OPERATION_EXAMPLES: Record<
  string,
  { request?: unknown; responses: Record<string, unknown> }
> = {
  streamEvents: { responses: { "200": EVENT_STREAM_EXAMPLE } },
  streamTenantEvents: {
    responses: {
      "200": [
        "retry: 2000",
        ": stream open",
        "",
        "id: -@1768468800000",
        "",
        "event: vocabulary.changed",
        "id: -@1768468805000",
        'data: {"namespace":"common","language":"de"}',
        "",
      ].join("\n"),
    },
  },
  login: {
    request: {
      client_id: CLIENT_ID,
      client_secret: "ols_Qm9vdHN0cmFwLXNlY3JldC1leGFtcGxlLXZhbHVl",
    },
    responses: { "200": TOKEN_RESPONSE },
  },
  refreshToken: { request: { token: TOKEN }, responses: { "200": TOKEN_RESPONSE } },
  getTokenKeys: {
    responses: {
      "200": {
        keys: [
          {
            kty: "OKP",
            crv: "Ed25519",
            x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
            kid: "k_2026-01",
            alg: "EdDSA",
            use: "sig",
          },
        ],
      },
    },
  },
  createSalesOrder: {
    request: ORDER_INPUT,
    responses: { "201": { message: "Sales order created", data: ORDER } },
  },
  listSalesOrders: {
    responses: { "200": { data: [ORDER], next_cursor: "c_MDAwMDAwNDE" } },
  },
  getSalesOrder: {
    responses: { "200": { data: { ...ORDER, history: [CANCELLED_ORDER.history[0]] } } },
  },
  cancelSalesOrder: {
    request: { reason: "Customer withdrew the order" },
    responses: { "200": { data: CANCELLED_ORDER } },
  },
  listWebhookEndpoints: { responses: { "200": { data: [WEBHOOK_ENDPOINT] } } },
  getWebhookEndpoint: { responses: { "200": { data: WEBHOOK_ENDPOINT } } },
  testWebhookEndpoint: {
    responses: { "201": { data: { event_id: "evt_01943f2d-1b2c-7d4e-8f90-a1b2c3d4e5f6" } } },
  },
  listRefusedRequests: {
    responses: {
      "200": {
        data: [
          {
            at: "2026-01-15T09:31:07.120Z",
            method: "POST",
            path: "/api/v1/sales-orders",
            status: 401,
            code: "signature_invalid",
            request_id: "3f1c2b7a-9d8e-4f60-8a1b-2c3d4e5f6a7b",
            detail:
              "X-SIGNATURE is not a SHA256withRSA signature of string_to_sign by an active key of this partner.",
            expected: {
              signature_version: 1,
              string_to_sign: `${CLIENT_ID}|1768469467`,
              hints: [
                {
                  code: "trailing_newline",
                  detail:
                    "The signature verifies for string_to_sign followed by a newline: sign the string without a trailing newline (printf '%s' rather than echo).",
                },
              ],
            },
          },
        ],
      },
    },
  },
  createWebhookEndpoint: {
    request: { url: WEBHOOK_ENDPOINT.url, events: WEBHOOK_ENDPOINT.events },
    responses: {
      "201": {
        data: { ...WEBHOOK_ENDPOINT, last_success_at: null, secret: WEBHOOK_SECRET },
      },
    },
  },
  updateWebhookEndpoint: {
    request: { enabled: false },
    responses: {
      "200": {
        data: {
          ...WEBHOOK_ENDPOINT,
          enabled: false,
          disabled_reason: "Disabled by tenant admin ops@tenant.example.",
          updated_at: "2026-01-16T08:00:00.000Z",
        },
      },
    },
  },
  rotateWebhookSecret: {
    responses: {
      "200": {
        data: { secret: WEBHOOK_SECRET, previous_valid_until: "2026-01-17T08:00:00.000Z" },
      },
    },
  },
  listWebhookDeliveries: {
    responses: {
      "200": {
        data: [
          {
            id: "wa_01943f2c8e1a7c3d9b2e5f60718293a4",
            event_id: "evt_01943f2c-8e1a-7c3d-9b2e-5f60718293a4",
            event_type: "order.accepted",
            attempt: 2,
            status: "succeeded",
            response_status: 200,
            duration_ms: 84,
            error: null,
            attempted_at: "2026-01-15T09:20:31.000Z",
          },
          {
            id: "wa_01943f2c0b117a2e8d4c3b2a19080706",
            event_id: "evt_01943f2c-8e1a-7c3d-9b2e-5f60718293a4",
            event_type: "order.accepted",
            attempt: 1,
            status: "failed",
            response_status: 503,
            duration_ms: 30,
            error: "the receiver answered 503",
            attempted_at: "2026-01-15T09:20:00.412Z",
          },
        ],
      },
    },
  },
};
