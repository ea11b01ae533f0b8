import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ERROR_CATALOGUE, type ErrorCode, problemOf } from "../problems/catalogue.js";
import { SECURITY_HEADER_LINES, SECURITY_HEADERS } from "./security-headers.js";

/**
 * Errors raised before a route is found, which Fastify would otherwise answer with its own
 * `{"error":"Bad Request",…}` JSON: the same problem+json as everywhere else.
 */

const PARSER_DETAIL = {
  request_timeout: "The request did not arrive completely within 30 seconds.",
  headers_too_large: "The request headers exceed 16 KiB.",
  malformed_request:
    "The request is not valid HTTP/1.1: for example a header folded over two lines, a control " +
    "character in a header, or a malformed request line.",
} as const satisfies Partial<Record<ErrorCode, string>>;

/** Node's HTTP parser refused the bytes: answer on the raw socket, then close it. */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const code: keyof typeof PARSER_DETAIL =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? "request_timeout"
      : error.code === "HPE_HEADER_OVERFLOW"
        ? "headers_too_large"
        : "malformed_request";
  const requestId = randomUUID();
  const { status } = ERROR_CATALOGUE[code];
  const body = JSON.stringify(problemOf(code, PARSER_DETAIL[code], { request_id: requestId }));
  this.log.info(
    { code, parser_code: error.code, request_id: requestId },
    "request refused before routing",
  );
  // An answer to an earlier (pipelined) request may still be under way on this connection:
  // writing now would put this one in its place, so then the connection is only closed.
  const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (socket.writable && !answering) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/problem+json\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        SECURITY_HEADER_LINES +
        "Connection: close\r\n\r\n" +
        body,
    );
  }
  socket.destroy();
}

/** The router could not take the URL apart (bad percent-encoding, an overlong segment). */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  let code: ErrorCode = "internal_error";
  let detail = "Something went wrong on our side; the request id identifies it in our logs.";
  if (error.code === "FST_ERR_BAD_URL") {
    code = "url_invalid";
    detail =
      "The path holds a percent-escape that is not UTF-8 (such as %ff); encode path segments as UTF-8.";
  } else if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    code = "uri_too_long";
    detail = "A path segment is longer than 100 characters; no id of this API is that long.";
  }
  if (code === "internal_error") request.log.error({ err: error }, "router error");
  else request.log.info({ code, fastify_code: error.code }, "request refused before routing");
  reply
    .code(ERROR_CATALOGUE[code].status)
    .header("content-type", "application/problem+json")
    .header("x-request-id", request.id)
    .headers(SECURITY_HEADERS)
    .send(JSON.stringify(problemOf(code, detail, { request_id: request.id })));
}
