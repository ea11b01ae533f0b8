/** An RFC 9457 problem as the gateway sends it (application/problem+json). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  [extension: string]: unknown;
}

/**
 * The gateway refused the request. Branch on `code` (stable, listed in docs/gateway/errors.md);
 * `detail` explains this instance; quote `requestId` to the integration team.
 */
export class PartnerApiError extends Error {
  override name = "PartnerApiError";
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly problem: Problem;
  /** How many times the request was sent (more than 1 after retries on 429, 503 or the network). */
  readonly attempts: number;

  constructor(status: number, problem: Problem, requestId: string | undefined, attempts = 1) {
    const code = typeof problem.code === "string" ? problem.code : `http_${status}`;
    const detail =
      typeof problem.detail === "string" ? problem.detail : (problem.title ?? `HTTP ${status}`);
    super(`${code}: ${detail}${requestId ? ` (request ${requestId})` : ""}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.requestId = requestId;
    this.problem = problem;
    this.attempts = attempts;
  }
}

/** The gateway could not be reached (or did not answer in time), also after the retries. */
export class PartnerNetworkError extends Error {
  override name = "PartnerNetworkError";
  constructor(
    message: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Why a webhook delivery was not accepted; see verifyWebhook. */
export type WebhookSignatureFailure =
  | "header_missing"
  | "header_malformed"
  | "no_matching_signature"
  | "timestamp_outside_tolerance"
  | "payload_not_json";

/**
 * A webhook delivery that must not be trusted: answer it with a 4xx (400 is usual). `reason`
 * says why, for logs; never tell the sender more than that it was refused.
 */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}
