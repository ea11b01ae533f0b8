import { type KeyObject, randomUUID } from "node:crypto";
import { PartnerApiError } from "./errors.js";
import { isOwnCancellation } from "./lib/own-cancellation.js";
import { failureOf, isSkewRefusal, Session, type TokenResponse } from "./lib/session.js";
import { type GatewayResponse, Transport } from "./lib/transport.js";
import { privateKeyOf, type SignatureVersion, signatureHeaders } from "./signing.js";
import type {
  OrderStatus,
  SalesOrder,
  SalesOrderDetail,
  SalesOrderInput,
  SalesOrderPage,
} from "./types.js";

export interface PartnerClientOptions {
  /** The gateway, e.g. `https://gateway.example.com` (no trailing path). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The RSA private key whose public key is registered: PEM text or a KeyObject. */
  privateKey: string | KeyObject;
  /**
   * 2 signs every request with version 2 (method, path, body covered). Default: version 1 until
   * the gateway answers `signature_version_required`, then version 2 for the client's lifetime.
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

export interface CreateOptions {
  /** Reused on every retry of this create; a fresh UUID when omitted. */
  idempotencyKey?: string;
}

/** Filters of the order listing, combined with AND. */
export interface OrderFilters {
  status?: OrderStatus;
  /** Created at or after this instant (a Date, or RFC 3339 text with `Z` or an offset). */
  createdFrom?: Date | string;
  /** Created before this instant (exclusive). */
  createdTo?: Date | string;
  /** The order with this purchase_order_no: at most one, they are unique per partner. */
  purchaseOrderNo?: string;
}

export interface ListOptions extends OrderFilters {
  /** 1–100 (the gateway's default is 20). */
  limit?: number;
  /** `next_cursor` of the previous page, sent with the same filters. */
  cursor?: string;
}

export interface IterateOptions extends OrderFilters {
  /** Orders per request, 1–100 (the gateway's default is 20). */
  pageSize?: number;
}

export interface CancelOptions {
  /** Why (1–500 characters): kept in the order's history, shown to the tenant. */
  reason: string;
}

export interface PartnerClient {
  /** Logs in now (otherwise the first call does); returns the token response. */
  login(): Promise<TokenResponse>;
  /** The signature version the client currently uses. */
  readonly signatureVersion: SignatureVersion;
  salesOrders: {
    create(order: SalesOrderInput, options?: CreateOptions): Promise<SalesOrder>;
    get(id: string): Promise<SalesOrderDetail>;
    list(options?: ListOptions): Promise<SalesOrderPage>;
    /** Every order of the partner (that the filters let through), newest first, page after page. */
    iterate(options?: IterateOptions): AsyncIterableIterator<SalesOrder>;
    /**
     * Withdraws an order the tenant has not accepted yet (status `received`); resolves to the
     * cancelled order. Later, 409 `order_transition_invalid` with `current_status`. Retried on
     * 429, 503 and network errors like every call: when an earlier attempt did cancel the order
     * but its answer was lost, the cancelled order is returned, not the retry's 409.
     */
    cancel(id: string, options: CancelOptions): Promise<SalesOrderDetail>;
  };
}

const USER_AGENT = "orderline-partner-sdk/0.1.0";

function instant(name: string, value: Date | string | undefined): string | undefined {
  if (!(value instanceof Date)) return value;
  if (Number.isNaN(value.getTime())) throw new TypeError(`${name} is an invalid Date`);
  return value.toISOString();
}

function listQuery(options: ListOptions): string {
  return queryOf({
    limit: options.limit,
    cursor: options.cursor,
    status: options.status,
    created_from: instant("createdFrom", options.createdFrom),
    created_to: instant("createdTo", options.createdTo),
    purchase_order_no: options.purchaseOrderNo,
  });
}

function orderPath(id: string): string {
  if (typeof id !== "string" || id === "") throw new TypeError("id must be a non-empty string");
  return `/api/v1/sales-orders/${encodeURIComponent(id)}`;
}

function queryOf(params: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
  if (pairs.length === 0) return "";
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join("&")}`;
}

/**
 * A client for the partner API. Every call gets a token (login on first use, refresh before
 * expiry, once more on `token_expired`), a fresh timestamp on the server's clock and a fresh
 * signature; failures become PartnerApiError with the problem's code.
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new TypeError(`baseUrl must start with http:// or https:// (got '${options.baseUrl}')`);
  }
  if (!options.clientId || !options.clientSecret) {
    throw new TypeError("clientId and clientSecret are required");
  }
  const privateKey = privateKeyOf(options.privateKey);
  const transport = new Transport({
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
  let lastTimestamp = 0;
  /**
   * X-TIMESTAMP in Unix milliseconds on the server's clock, never the same twice: each attempt
   * (a retry included) is a request of its own, which the gateway refuses to see twice
   * (request_replayed), even two identical orders or a retry within one second.
   */
  const nextTimestamp = (): string => {
    const now = Math.floor(transport.serverNow());
    // After the clock estimate moved back (a correction), start again from it: the timestamps
    // ahead were refused as out of the window, so none of them was ever accepted.
    lastTimestamp = now > lastTimestamp || lastTimestamp - now > 1000 ? now : lastTimestamp + 1;
    return String(lastTimestamp);
  };
  const session = new Session(
    transport,
    options,
    options.refreshMarginSeconds ?? 60,
    options.signLogin === false
      ? undefined
      : () =>
          // A login always signs the seed's string, client_id|X-TIMESTAMP (version 1).
          signatureHeaders(privateKey, 1, {
            clientId: options.clientId,
            timestamp: nextTimestamp(),
            method: "POST",
            target: "/api/v1/auth/login",
          }).headers,
  );
  let version: SignatureVersion = options.signatureVersion ?? 1;

  /** One signed call, with its one-time corrections: token renewal, clock, signature version. */
  async function signed(
    method: string,
    target: string,
    body?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<GatewayResponse> {
    let renewed = false;
    let clockFixed = false;
    // Over the corrections too: the typed error tells whether any earlier attempt was sent.
    let attempts = 0;
    for (;;) {
      let token = "";
      const response = await transport.send(async () => {
        token = await session.token();
        const timestamp = nextTimestamp();
        const { headers } = signatureHeaders(privateKey, version, {
          clientId: options.clientId,
          timestamp,
          method,
          target,
          ...(body === undefined ? {} : { body }),
        });
        return {
          method,
          target,
          headers: { authorization: `Bearer ${token}`, ...headers, ...extraHeaders },
          ...(body === undefined ? {} : { body }),
        };
      });
      if (response.status < 300) return response;
      attempts += response.attempts;
      const error = failureOf({ ...response, attempts });
      if (error.code === "token_expired" && !renewed) {
        renewed = true;
        await session.expired(token);
        continue;
      }
      const serverTime = error.problem.server_time;
      if (isSkewRefusal(error) && !clockFixed && typeof serverTime === "number") {
        clockFixed = true;
        transport.learnServerSeconds(serverTime);
        continue;
      }
      if (error.code === "signature_version_required" && version === 1) {
        version = 2;
        continue;
      }
      throw error;
    }
  }

  const salesOrders: PartnerClient["salesOrders"] = {
    async create(order, createOptions = {}) {
      const key = createOptions.idempotencyKey ?? randomUUID();
      const response = await signed("POST", "/api/v1/sales-orders", JSON.stringify(order), {
        "idempotency-key": key,
      });
      return (response.body as { data: SalesOrder }).data;
    },
    async get(id) {
      const response = await signed("GET", orderPath(id));
      return (response.body as { data: SalesOrderDetail }).data;
    },
    async list(listOptions = {}) {
      return (await signed("GET", `/api/v1/sales-orders${listQuery(listOptions)}`))
        .body as SalesOrderPage;
    },
    async *iterate(iterateOptions = {}) {
      const { pageSize, ...filters } = iterateOptions;
      let cursor: string | undefined;
      do {
        const page = await salesOrders.list({
          ...filters,
          ...(pageSize === undefined ? {} : { limit: pageSize }),
          ...(cursor === undefined ? {} : { cursor }),
        });
        yield* page.data;
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },
    async cancel(id, cancelOptions) {
      const path = `${orderPath(id)}/cancel`;
      const reason = cancelOptions?.reason;
      if (typeof reason !== "string" || reason.trim() === "") {
        throw new TypeError("cancel needs a reason: a non-empty string");
      }
      try {
        const response = await signed("POST", path, JSON.stringify({ reason }));
        return (response.body as { data: SalesOrderDetail }).data;
      } catch (error) {
        // Only a retried request can meet its own earlier success; a first answer of 409 is the truth.
        if (
          error instanceof PartnerApiError &&
          error.attempts > 1 &&
          error.code === "order_transition_invalid" &&
          error.problem.current_status === "cancelled"
        ) {
          const order = await salesOrders.get(id);
          if (isOwnCancellation(order, reason)) return order;
        }
        throw error;
      }
    },
  };

  return {
    login: () => session.login(),
    get signatureVersion() {
      return version;
    },
    salesOrders,
  };
}
