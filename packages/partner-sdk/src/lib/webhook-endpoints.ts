import type {
  CreatedWebhookEndpoint,
  RefusedRequest,
  RotatedWebhookSecret,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEndpointInput,
} from "../self-service-types.js";
import type { SignedCall } from "./signed-call.js";

const BASE = "/api/v1/webhook-endpoints";

function segment(name: string, value: string): string {
  if (typeof value !== "string" || value === "")
    throw new TypeError(`${name} must be a non-empty string`);
  return encodeURIComponent(value);
}

const endpointPath = (id: string) => `${BASE}/${segment("id", id)}`;

function limitQuery(limit: number | undefined): string {
  if (limit === undefined) return "";
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new TypeError("limit must be an integer from 1 to 100");
  return `?limit=${limit}`;
}

/** A partner's own webhook endpoints: `client.webhookEndpoints`. */
export interface WebhookEndpointCalls {
  /** Registers an endpoint; resolves with its secret, which is shown only this once. */
  create(input: WebhookEndpointInput): Promise<CreatedWebhookEndpoint>;
  list(): Promise<WebhookEndpoint[]>;
  get(id: string): Promise<WebhookEndpoint>;
  update(id: string, change: WebhookEndpointChange): Promise<WebhookEndpoint>;
  /** Removes the endpoint with its queued deliveries. */
  delete(id: string): Promise<void>;
  /** A new secret, shown once; the old one keeps signing beside it for the grace period. */
  rotateSecret(id: string): Promise<RotatedWebhookSecret>;
  /** The endpoint's delivery attempts, newest first (limit 1–100, default 20). */
  deliveries(id: string, options?: { limit?: number }): Promise<WebhookAttempt[]>;
  /** Delivers the event (`evt_…`) to the endpoint again, now. */
  resend(id: string, eventId: string): Promise<void>;
  /** Fires a `webhook.test` event at the endpoint; resolves with its id once queued. */
  test(id: string): Promise<{ event_id: string }>;
}

export function webhookEndpointsOf(signed: SignedCall): WebhookEndpointCalls {
  // Every answer with a body has it under `data` (the API's one envelope).
  const data = async <T>(method: string, target: string, body?: unknown): Promise<T> => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return ((await signed(method, target, text)).body as { data: T }).data;
  };
  return {
    create: (input) => data("POST", BASE, input),
    list: () => data<WebhookEndpoint[]>("GET", BASE),
    get: (id) => data("GET", endpointPath(id)),
    update: (id, change) => data("PATCH", endpointPath(id), change),
    delete: async (id) => {
      await signed("DELETE", endpointPath(id));
    },
    rotateSecret: (id) => data("POST", `${endpointPath(id)}/secret`),
    deliveries: (id, options = {}) =>
      data<WebhookAttempt[]>("GET", `${endpointPath(id)}/deliveries${limitQuery(options.limit)}`),
    resend: async (id, eventId) => {
      await signed("POST", `${endpointPath(id)}/deliveries/${segment("eventId", eventId)}/resend`);
    },
    test: (id) => data("POST", `${endpointPath(id)}/test`),
  };
}

/** The partner's own refused requests: `client.requestLog`. */
export interface RequestLogCalls {
  /** Refused requests of the last 7 days, newest first (limit 1–100, default 50). */
  failed(options?: { limit?: number }): Promise<RefusedRequest[]>;
}

export function requestLogOf(signed: SignedCall): RequestLogCalls {
  return {
    failed: async (options = {}) => {
      const limit = limitQuery(options.limit).replace("?", "&");
      const response = await signed("GET", `/api/v1/request-log?outcome=failed${limit}`);
      return (response.body as { data: RefusedRequest[] }).data;
    },
  };
}
