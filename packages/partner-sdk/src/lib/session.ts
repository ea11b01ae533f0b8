import { PartnerApiError, type Problem } from "../errors.js";
import type { GatewayResponse, Transport } from "./transport.js";

export interface TokenResponse {
  token: string;
  /** Unix seconds. */
  expired_at: number;
}

/** Refusals of a timestamp outside the window, which carry the server's time. */
const SKEW_CODES = new Set(["timestamp_too_old", "timestamp_in_future"]);

export function isSkewRefusal(error: unknown): error is PartnerApiError {
  return error instanceof PartnerApiError && SKEW_CODES.has(error.code);
}

/** Turns a non-2xx answer into the typed error. */
export function failureOf(response: GatewayResponse): PartnerApiError {
  const problem: Problem =
    response.body !== null && typeof response.body === "object"
      ? (response.body as Problem)
      : { detail: typeof response.body === "string" ? response.body.slice(0, 500) : "" };
  return new PartnerApiError(response.status, problem, response.requestId, response.attempts);
}

/**
 * The partner's access token: logged in on first use, refreshed `marginSeconds` before it
 * expires (by the server's clock), logged in again when a refresh is refused. Concurrent callers
 * share one login or refresh.
 */
export class Session {
  #token: TokenResponse | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly credentials: { clientId: string; clientSecret: string },
    private readonly marginSeconds: number,
    /** The signature headers of a login (fresh per attempt); absent: logins are unsigned. */
    private readonly loginProof?: () => Record<string, string>,
  ) {}

  async #post(
    target: string,
    body: unknown,
    headers: () => Record<string, string> = () => ({}),
  ): Promise<TokenResponse> {
    const response = await this.transport.send(async () => ({
      method: "POST",
      target,
      headers: headers(),
      body: JSON.stringify(body),
    }));
    if (response.status !== 200) throw failureOf(response);
    const token = response.body as TokenResponse;
    this.#token = token;
    return token;
  }

  async login(): Promise<TokenResponse> {
    const post = () =>
      this.#post(
        "/api/v1/auth/login",
        { client_id: this.credentials.clientId, client_secret: this.credentials.clientSecret },
        this.loginProof,
      );
    try {
      return await post();
    } catch (error) {
      // A signed login carries a timestamp: a clock off by more than the window is corrected
      // once from the server_time of the refusal, as for order requests.
      const serverTime = error instanceof PartnerApiError ? error.problem.server_time : undefined;
      if (!isSkewRefusal(error) || typeof serverTime !== "number") throw error;
      this.transport.learnServerSeconds(serverTime);
      return post();
    }
  }

  async #renew(): Promise<string> {
    const current = this.#token;
    if (current !== undefined) {
      try {
        return (await this.#post("/api/v1/auth/refresh", { token: current.token })).token;
      } catch (error) {
        // A refused refresh (reused, window closed, session too old) ends the session: log in.
        if (!(error instanceof PartnerApiError) || error.status !== 401) throw error;
      }
    }
    return (await this.login()).token;
  }

  /** A token valid for at least the margin, renewing it when needed. */
  token(): Promise<string> {
    const current = this.#token;
    const nowSeconds = Math.floor(this.transport.serverNow() / 1000);
    if (current !== undefined && current.expired_at - this.marginSeconds > nowSeconds) {
      return Promise.resolve(current.token);
    }
    this.#pending ??= this.#renew().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** The gateway said `stale` expired: renew unless another caller already did. */
  expired(stale: string): Promise<string> {
    if (this.#token?.token === stale) this.#token = { ...this.#token, expired_at: 0 };
    return this.token();
  }
}
