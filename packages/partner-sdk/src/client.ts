import type { KeyObject } from "node:crypto";
import { type EventStreamOptions, type StreamEvent, streamEvents } from "./lib/event-stream.js";
import {
  type CancelOptions,
  type CreateOptions,
  type IterateOptions,
  type ListOptions,
  type OrderFilters,
  type SalesOrderCalls,
  salesOrdersOf,
} from "./lib/sales-orders.js";
import { Session, type TokenResponse } from "./lib/session.js";
import { signedCaller } from "./lib/signed-call.js";
import { timestampSource } from "./lib/timestamps.js";
import { Transport } from "./lib/transport.js";
import {
  type RequestLogCalls,
  requestLogOf,
  type WebhookEndpointCalls,
  webhookEndpointsOf,
} from "./lib/webhook-endpoints.js";
import { privateKeyOf, type SignatureVersion, signatureHeaders } from "./signing.js";

export interface PartnerClientOptions {
  /** The gateway, e.g. `https://gateway.example.com` (no trailing path). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The RSA private key whose public key is registered: PEM text or a KeyObject. */
  privateKey: string | KeyObject;
  /**
   * Default 2: every request is signed with version 2 (method, path and body covered, so a body
   * changed after signing is refused). 1 signs the seed's `client_id|timestamp` only, for
   * gateways older than version 2; the gateway's `signature_version_required` still moves a
   * version 1 client to 2 for its lifetime.
   */
  signatureVersion?: SignatureVersion;
  /** Retries after a 429, a 503 or a network error (default 3). */
  maxRetries?: number;
  /** First backoff step in ms, doubled per retry, with full jitter (default 250). */
  retryBaseDelayMs?: number;
  /** A Retry-After longer than this is not waited for (default 30 000 ms). */
  maxRetryAfterMs?: number;
  /** Per attempt (default 30 000 ms). */
  timeoutMs?: number;
  /** Renew the token this long before it expires (default 60 s). */
  refreshMarginSeconds?: number;
  /**
   * Sign logins with the private key (default true): a signed login proves the key, so the
   * gateway never throttles it for failures of logins that did not (someone guessing secrets
   * for this client_id from elsewhere). false sends the seed's unsigned login.
   */
  signLogin?: boolean;
  /** For tests and special transports. */
  fetch?: typeof fetch;
  /** The local clock in Unix ms (default Date.now); the server's clock offset is learned. */
  now?: () => number;
}

export interface PartnerClient {
  /** Logs in now (otherwise the first call does); returns the token response. */
  login(): Promise<TokenResponse>;
  /** The signature version the client currently uses. */
  readonly signatureVersion: SignatureVersion;
  salesOrders: SalesOrderCalls;
  /** The partner's own webhook endpoints: register, test, inspect, resend, rotate. */
  webhookEndpoints: WebhookEndpointCalls;
  /** The partner's own refused requests of the last 7 days. */
  requestLog: RequestLogCalls;
  events: {
    /**
     * The partner's events as they happen (`GET /api/v1/events/stream`): each one's `data` is
     * the exact body its webhook delivery carries. Reconnects by itself after a dropped
     * connection with Last-Event-ID, so none is lost or repeated; ends when `signal` aborts.
     */
    stream(options?: EventStreamOptions): AsyncIterableIterator<StreamEvent>;
  };
}

export type {
  CancelOptions,
  CreateOptions,
  IterateOptions,
  ListOptions,
  OrderFilters,
  SalesOrderCalls,
};

const USER_AGENT = "orderline-partner-sdk/1.0.0";

/** The gateway's origin without trailing slashes; throws on anything but http(s). */
function checkedBaseUrl(given: string): string {
  const baseUrl = given.replace(/\/+$/, "");
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new TypeError(`baseUrl must start with http:// or https:// (got '${given}')`);
  }
  return baseUrl;
}

function transportOf(baseUrl: string, options: PartnerClientOptions): Transport {
  return new Transport({
    baseUrl,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
    maxRetries: options.maxRetries ?? 3,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    timeoutMs: options.timeoutMs ?? 30_000,
    userAgent: USER_AGENT,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

/** The signature headers of one login attempt, or undefined when logins go unsigned. */
function loginProofOf(
  options: PartnerClientOptions,
  privateKey: KeyObject,
  nextTimestamp: () => string,
): (() => Record<string, string>) | undefined {
  if (options.signLogin === false) return undefined;
  return () =>
    // A login always signs the seed's string, client_id|X-TIMESTAMP (version 1).
    signatureHeaders(privateKey, 1, {
      clientId: options.clientId,
      timestamp: nextTimestamp(),
      method: "POST",
      target: "/api/v1/auth/login",
    }).headers;
}

/**
 * A client for the partner API. Every call gets a token (login on first use, refresh before
 * expiry, once more on `token_expired`), a fresh timestamp on the server's clock and a fresh
 * signature; failures become PartnerApiError with the problem's code.
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const baseUrl = checkedBaseUrl(options.baseUrl);
  if (!options.clientId || !options.clientSecret) {
    throw new TypeError("clientId and clientSecret are required");
  }
  const privateKey = privateKeyOf(options.privateKey);
  const transport = transportOf(baseUrl, options);
  const nextTimestamp = timestampSource(() => transport.serverNow());
  const session = new Session(
    transport,
    options,
    options.refreshMarginSeconds ?? 60,
    loginProofOf(options, privateKey, nextTimestamp),
  );
  const caller = signedCaller({
    transport,
    session,
    privateKey,
    clientId: options.clientId,
    nextTimestamp,
    signatureVersion: options.signatureVersion ?? 2,
  });
  return {
    login: () => session.login(),
    get signatureVersion() {
      return caller.version;
    },
    salesOrders: salesOrdersOf(caller.call),
    webhookEndpoints: webhookEndpointsOf(caller.call),
    requestLog: requestLogOf(caller.call),
    events: {
      stream: (streamOptions) =>
        streamEvents(
          {
            baseUrl,
            fetch: options.fetch ?? globalThis.fetch,
            session,
            privateKey,
            clientId: options.clientId,
            nextTimestamp,
            version: () => caller.version,
            userAgent: USER_AGENT,
            learnServerSeconds: (seconds) => transport.learnServerSeconds(seconds),
            sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
          },
          streamOptions,
        ),
    },
  };
}
