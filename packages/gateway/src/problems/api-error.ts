import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.js";

/** What a caller may do next, beside the problem itself. */
export interface RefusalHints {
  /** When the same request may succeed, for refusals that pass with time. */
  retryAfterSeconds?: number;
  /** The current version of the resource a conditional change was refused on. */
  etag?: string;
}

/**
 * A refusal with its catalogue code, thrown wherever the rule lives; http/error-handler.ts
 * renders it as problem+json (its hints as Retry-After and ETag headers), the CLI as a message.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly hints: RefusalHints = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = ERROR_CATALOGUE[code].status;
  }
}
