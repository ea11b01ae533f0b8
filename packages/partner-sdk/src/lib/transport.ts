import { PartnerNetworkError } from "../errors.js";

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  /** The local clock, Unix ms. */
  now: () => number;
  maxRetries: number;
  retryBaseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller. */
  maxRetryAfterMs: number;
  timeoutMs: number;
  userAgent: string;
  sleep: (ms: number) => Promise<void>;
}

export interface OutgoingRequest {
  method: string;
  /** Path and query, as sent and signed. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface GatewayResponse {
  status: number;
  headers: Headers;
  body: unknown;
  requestId: string | undefined;
  /** How many times the request was sent: above 1, an earlier attempt may have been acted on. */
  attempts: number;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * HTTP to the gateway with what every call needs: a fresh request per attempt (so each carries a
 * fresh timestamp and signature), retries with exponential backoff and full jitter on 429, 503
 * and network errors only, and the offset of the server's clock learned from every `Date`.
 */
export class Transport {
  /** Server clock minus local clock, in ms. */
  offsetMs = 0;

  constructor(private readonly options: TransportOptions) {}

  /** The server's current time as best known, Unix ms. */
  serverNow(): number {
    return this.options.now() + this.offsetMs;
  }

  /** Learns from a server time known to the second (a problem's `server_time`). */
  learnServerSeconds(serverSeconds: number): void {
    this.#learnSecond(serverSeconds * 1000);
  }

  #learnDate(headers: Headers): void {
    const date = headers.get("date");
    if (date === null) return;
    const at = Date.parse(date);
    if (!Number.isNaN(at)) this.#learnSecond(at);
  }

  /**
   * The server's clock read `secondStartMs` (Unix ms, one-second resolution). An estimate
   * inside that second is kept: resetting it to the second's midpoint at every response threw
   * the local clock's milliseconds away, and two clients (two processes of one partner) then
   * signed on the same grid of midpoint + elapsed, where identical orders got identical
   * timestamps and one was refused as a replay. Outside it, the midpoint is the best estimate.
   */
  #learnSecond(secondStartMs: number): void {
    const estimate = this.serverNow();
    if (estimate >= secondStartMs && estimate < secondStartMs + 1000) return;
    this.offsetMs = secondStartMs + 500 - this.options.now();
  }

  #backoff(attempt: number): number {
    const cap = this.options.retryBaseDelayMs * 2 ** attempt;
    return Math.round(Math.random() * cap);
  }

  async send(build: () => Promise<OutgoingRequest>): Promise<GatewayResponse> {
    const { maxRetries } = this.options;
    for (let attempt = 0; ; attempt++) {
      const request = await build();
      let response: Response;
      try {
        response = await this.options.fetch(`${this.options.baseUrl}${request.target}`, {
          method: request.method,
          headers: {
            accept: "application/json",
            "user-agent": this.options.userAgent,
            ...(request.body === undefined ? {} : { "content-type": "application/json" }),
            ...request.headers,
          },
          ...(request.body === undefined ? {} : { body: request.body }),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (error) {
        if (attempt < maxRetries) {
          await this.options.sleep(this.#backoff(attempt));
          continue;
        }
        throw new PartnerNetworkError(
          `${request.method} ${this.options.baseUrl}${request.target} failed after ${attempt + 1} attempt(s): ${(error as Error).message}`,
          attempt + 1,
          { cause: error },
        );
      }
      this.#learnDate(response.headers);
      if (RETRIED_STATUSES.has(response.status) && attempt < maxRetries) {
        const wait = retryAfterMs(response.headers.get("retry-after"), this.options.now());
        if (wait === undefined || wait <= this.options.maxRetryAfterMs) {
          await response.body?.cancel().catch(() => {});
          await this.options.sleep(wait ?? this.#backoff(attempt));
          continue;
        }
      }
      return readResponse(response, attempt + 1);
    }
  }
}

async function readResponse(response: Response, attempts: number): Promise<GatewayResponse> {
  const text = await response.text();
  let body: unknown = text;
  if (/json/i.test(response.headers.get("content-type") ?? "") && text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const fromBody =
    body !== null && typeof body === "object" && "request_id" in body
      ? String((body as { request_id: unknown }).request_id)
      : undefined;
  return {
    status: response.status,
    headers: response.headers,
    body,
    requestId: response.headers.get("x-request-id") ?? fromBody,
    attempts,
  };
}
