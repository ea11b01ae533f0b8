import type { ErrorObject } from "ajv";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { noteProblem } from "../observability/metrics.js";
import { ApiError, type RefusalHints } from "../problems/api-error.js";
import { type ErrorCode, type Problem, problemOf } from "../problems/catalogue.js";
import { isStoreOutage } from "../store/outage.js";
import { DeadlinePassed } from "./request-deadline.js";
import { fieldErrorsDetail, fieldErrorsOf } from "./validation.js";

function send(
  reply: FastifyReply,
  problem: Problem,
  headers: Record<string, string> = {},
): FastifyReply {
  noteProblem(reply.request, problem.code);
  return reply.code(problem.status).headers(headers).type("application/problem+json").send(problem);
}

function classify(error: FastifyError): {
  code: ErrorCode;
  detail: string;
  extra?: Record<string, unknown>;
} {
  if (error.validation) {
    const location = error.validationContext ?? "body";
    const errors = fieldErrorsOf(error.validation as ErrorObject[], location);
    return {
      code: "validation_failed",
      detail: errors.length > 0 ? fieldErrorsDetail(errors) : "The request is not valid.",
      extra: { errors },
    };
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { code: "payload_too_large", detail: "The request body exceeds 1 MiB." };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return {
        code: "unsupported_media_type",
        detail: "Send the body as 'Content-Type: application/json'.",
      };
  }
  // Parser messages can quote the body, which may hold secrets: never echo them.
  if (
    error.statusCode === 400 ||
    error instanceof SyntaxError ||
    error.code?.startsWith("FST_ERR_CTP")
  ) {
    return {
      code: "malformed_body",
      detail: "The request body is not valid JSON (UTF-8, one JSON object).",
    };
  }
  if (error.statusCode === 405)
    return { code: "method_not_allowed", detail: "This method is not allowed here." };
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { code: "malformed_body", detail: "The request could not be processed as sent." };
  }
  return {
    code: "internal_error",
    detail: "Something went wrong on our side; the request id identifies it in our logs.",
  };
}

/**
 * How long a client should wait before retrying after a store outage: long enough for a
 * failover or a restart to make progress, short enough that a blip costs little.
 */
const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * A store outage, or a request that ran past its deadline (GATEWAY_REQUEST_TIMEOUT_MS, which
 * only a store that does not answer makes happen): retryable, so 503 with Retry-After, never a
 * 500. An order that got this may or may not be stored; a retry with the same Idempotency-Key
 * settles it.
 */
function storeUnavailable(error: FastifyError): Problem | undefined {
  const timedOut = error instanceof DeadlinePassed;
  if (!timedOut && !isStoreOutage(error)) return undefined;
  return problemOf(
    "store_unavailable",
    timedOut
      ? `The store did not answer in time; retry in ${STORE_RETRY_AFTER_SECONDS} s.`
      : `The store cannot be reached right now; retry in ${STORE_RETRY_AFTER_SECONDS} s.`,
    { retry_after: STORE_RETRY_AFTER_SECONDS },
  );
}

function hintHeaders({ retryAfterSeconds, etag }: RefusalHints): Record<string, string> {
  return {
    ...(retryAfterSeconds === undefined ? {} : { "retry-after": String(retryAfterSeconds) }),
    ...(etag === undefined ? {} : { etag }),
  };
}

export function installErrorHandling(
  app: FastifyInstance,
  allowedMethods: (path: string) => string[],
): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      request.log.info({ code: error.code, status: error.status }, "request refused");
      return send(
        reply,
        problemOf(error.code, error.message, { ...error.extensions, request_id: request.id }),
        hintHeaders(error.hints),
      );
    }
    const outage = storeUnavailable(error);
    if (outage) {
      request.log.warn({ code: outage.code, err: error.message }, "store unavailable");
      return send(
        reply,
        { ...outage, request_id: request.id },
        { "retry-after": String(STORE_RETRY_AFTER_SECONDS) },
      );
    }
    const { code, detail, extra } = classify(error);
    if (code === "internal_error") {
      request.log.error({ err: error }, "unhandled error");
    } else {
      request.log.info({ code, fastify_code: error.code }, "request refused");
    }
    return send(reply, problemOf(code, detail, { ...extra, request_id: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    const allowed = allowedMethods(path);
    // A route that takes this method and found nothing (a missing console file, say) is a 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return send(
        reply,
        problemOf(
          "method_not_allowed",
          `${request.method} is not allowed on ${path}; it takes ${allowed.join(", ")}.`,
          { request_id: request.id },
        ),
        { allow: allowed.join(", ") },
      );
    }
    return send(
      reply,
      problemOf("not_found", `No route for ${request.method} ${path}.`, {
        request_id: request.id,
      }),
    );
  });
}
