import { hostname } from "node:os";
import { type DestinationStream, type Logger, pino } from "pino";
import { activeTraceIds, tracingEnabled } from "../observability/tracing.js";

/**
 * Paths pino censors wherever they appear in a log line. The gateway never logs request bodies
 * or headers on purpose; this is the second line of defence for tokens, secrets and signatures.
 */
const REDACTED_PATHS = [
  "req.headers.authorization",
  'req.headers["x-signature"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-signature"]',
  "client_secret",
  "token",
  "signature",
  "*.client_secret",
  "*.token",
  "*.signature",
];

/** A URL's path: the query string is left out (it carries personal data: `purchase_order_no`). */
const pathOf = (url: string | undefined): string => (url ?? "").split("?")[0] ?? "";

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The `req` of request log lines (Fastify's own serializer, but the path without its query):
 * it takes precedence over Fastify's, which a child logger only adds where the parent has none.
 */
const requestSerializer = (req: LoggedRequest) => ({
  method: req.method,
  url: pathOf(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/** `<host>:<pid>`: what names this process in log lines unless GATEWAY_INSTANCE_ID does. */
const defaultInstanceId = (): string => `${hostname()}:${process.pid}`;

/**
 * JSON lines on stdout (or `destination`), each naming the instance; while tracing runs, each
 * line written during a request carries that request's trace_id and span_id.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  instance: string = defaultInstanceId(),
): Logger {
  const options = {
    level,
    base: { service: "orderline-gateway", instance },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { req: requestSerializer },
    ...(tracingEnabled() ? { mixin: () => activeTraceIds() ?? {} } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
