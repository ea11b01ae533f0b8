/** A partner's webhook endpoint, as the gateway shows it (never with its secret). */
export interface WebhookEndpoint {
  /** `we_…` */
  id: string;
  url: string;
  /** Event types it receives, or `["*"]` for all. */
  events: string[];
  enabled: boolean;
  /** Who disabled it, or after how long of failed deliveries; null while enabled. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  last_success_at: string | null;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failing_since: string | null;
}

/** A new endpoint with its signing secret: shown this once, keep it in a secret manager. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  /** `whsec_…` */
  secret: string;
}

export interface WebhookEndpointInput {
  url: string;
  /** Event types (`order.created`, `order.accepted`, …) or `["*"]`. */
  events: string[];
}

export interface WebhookEndpointChange {
  url?: string;
  events?: string[];
  /** Enabling also clears the failure streak; queued deliveries resume. */
  enabled?: boolean;
}

export interface RotatedWebhookSecret {
  /** The new `whsec_…`, shown this once. */
  secret: string;
  /** Until when deliveries also carry a signature with the old secret (null: not at all). */
  previous_valid_until: string | null;
}

/** One delivery attempt of an event to an endpoint. */
export interface WebhookAttempt {
  id: string;
  /** `evt_…`, as in Orderline-Event-Id. */
  event_id: string;
  event_type: string;
  /** 1 for the first attempt of the event. */
  attempt: number;
  status: "succeeded" | "failed";
  /** null: no HTTP answer (refused, unreachable, timed out). */
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
}

/** One refused request of the partner (GET /api/v1/request-log). */
export interface RefusedRequest {
  at: string;
  method: string;
  /** Without the query string. */
  path: string;
  status: number;
  code: string;
  request_id: string;
  detail: string | null;
  /**
   * What the gateway expected: for a signature failure `signature_version`, `string_to_sign`
   * and `hints`; `server_time` for a timestamp; `missing_headers`; validation `errors`.
   */
  expected: {
    signature_version?: number;
    string_to_sign?: string;
    hints?: { code: string; detail: string }[];
    [member: string]: unknown;
  } | null;
}
