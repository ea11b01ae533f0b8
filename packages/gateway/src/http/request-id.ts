import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's X-Request-Id when it is a sane token, so traces join up; else a UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const header = req.headers["x-request-id"];
  return typeof header === "string" && ACCEPTABLE.test(header) ? header : randomUUID();
}
