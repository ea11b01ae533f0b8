/** A partner's webhook endpoint as the tenant API answers it (the webhook contract's Endpoint). */
export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** The gateway's words: who disabled it, or after how long of failures. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  last_success_at: string | null;
  failing_since: string | null;
}

/** One delivery attempt of an event to an endpoint. */
export interface Attempt {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
}

/** A message kept as its key and values, so it follows a language change while shown. */
export interface Said {
  key: string;
  values: Record<string, unknown>;
}
