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

/** One refused field of a `validation_failed` problem: where, and what it accepts. */
export interface FieldError {
  /** `body`, `querystring`, `params` or `headers`. */
  in?: string;
  /** JSON Pointer to the field, e.g. `/products/0/quantity` (`/` for the whole). */
  pointer: string;
  /** One sentence for a person: "must be one of …", "is required". */
  message: string;
}

const fieldErrorsOf = (problem: Problem): FieldError[] =>
  Array.isArray(problem.errors)
    ? (problem.errors as unknown[]).filter(
        (e): e is FieldError =>
          typeof e === "object" &&
          e !== null &&
          typeof (e as FieldError).pointer === "string" &&
          typeof (e as FieldError).message === "string",
      )
    : [];

/** "/currency must be …; /customer_code is required": every field, as the gateway wrote it. */
const fieldErrorsText = (errors: readonly FieldError[]): string =>
  errors.map((e) => `${e.pointer} ${e.message}`).join("; ");

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
  /** Each refused field with its message (a `validation_failed` problem's `errors`), else []. */
  readonly fieldErrors: FieldError[];
  /** How many times the request was sent (more than 1 after retries on 429, 503 or the network). */
  readonly attempts: number;

  constructor(status: number, problem: Problem, requestId: string | undefined, attempts = 1) {
    const code = typeof problem.code === "string" ? problem.code : `http_${status}`;
    const detail =
      typeof problem.detail === "string" ? problem.detail : (problem.title ?? `HTTP ${status}`);
    const fieldErrors = fieldErrorsOf(problem);
    const text = fieldErrors.length > 0 ? fieldErrorsText(fieldErrors) : detail;
    super(`${code}: ${text}${requestId ? ` (request ${requestId})` : ""}`);
    this.fieldErrors = fieldErrors;
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
