import { hostname } from "node:os";
import { type DestinationStream, type Logger, pino } from "pino";
import { activeTraceIds, tracingEnabled } from "../observability/tracing.js";

/**
 * Paths pino censors wherever they appear in a log line. The gateway never logs request bodies
 * or headers on purpose; this is the second line of defence for tokens, secrets and signatures.
 */
export const REDACTED_PATHS = [
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

/** `<host>:<pid>`: what names this process in log lines unless GATEWAY_INSTANCE_ID does. */
export const defaultInstanceId = (): string => `${hostname()}:${process.pid}`;

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
    ...(tracingEnabled() ? { mixin: () => activeTraceIds() ?? {} } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
