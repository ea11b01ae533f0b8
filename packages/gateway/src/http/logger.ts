import { type DestinationStream, type Logger, pino } from "pino";

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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "orderline-gateway" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
