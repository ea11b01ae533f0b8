import { ApiError } from "../problems/api-error.js";

/**
 * The refusal of an exact replay of a signed request: by the replay guard before a request acts,
 * or by the order's own transaction for a create, whose nonce is stored only with its order (so
 * the refusal can say the order exists).
 */
export const requestReplayed = (what: "request" | "create" = "request"): ApiError =>
  new ApiError(
    "request_replayed",
    what === "create"
      ? "This exact signed request (same X-TIMESTAMP, X-SIGNATURE, method, path and body) created its order before; nothing was done this time. Send the request with an Idempotency-Key to have a retry answered with the first 201, and sign every attempt with a fresh X-TIMESTAMP."
      : "This exact signed request (same X-TIMESTAMP, X-SIGNATURE, method, path and body) was received before; nothing was done. Sign every request, retries included, with a fresh X-TIMESTAMP.",
  );
