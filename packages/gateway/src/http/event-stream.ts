import type { FastifyReply, FastifyRequest } from "fastify";
import { countTakenOverResponse } from "../observability/metrics.js";
import { routeConfigOf } from "./route-config.js";

/** One server-sent event, as domain/events/session.ts hands it over. */
interface EventStreamMessage {
  id?: string;
  event?: string;
  data?: unknown;
  /** A comment line (`: …`) before the fields. */
  comment?: string;
}

export interface EventStreamOptions {
  /** A comment line this often: proxies and clients see the connection is alive. */
  heartbeatMs: number;
  /** The stream ends after this long; the client reconnects with Last-Event-ID. */
  maxMs: number;
  /** Called once when the stream ends, whoever ended it (client, server, lifetime). */
  onEnd: () => void;
  /**
   * Re-checked every `recheckMs`, and at once on `recheck()` (`fresh`: past any cache, the
   * credentials just changed): false (an expired token, a disabled user or partner, a revoked
   * key or session) ends the stream; the client's reconnect is authenticated afresh.
   */
  stillAllowed?: (fresh: boolean) => Promise<boolean>;
  recheckMs?: number;
}

interface EventStream {
  send(message: EventStreamMessage): Promise<void>;
  end(): void;
  /** Checks the credentials again now (they changed); ends the stream unless they hold. */
  recheck(): void;
}

/** `Last-Event-ID` as a stream resumes with it (EventSource sends it on reconnecting). */
export const LAST_EVENT_ID_HEADERS = {
  type: "object",
  properties: { "last-event-id": { type: "string", minLength: 1, maxLength: 200 } },
} as const;

export const EVENT_STREAM_RESPONSE = {
  description:
    "A `text/event-stream`: each event has `id:` (send it back as `Last-Event-ID` to resume), `event:` (the type) " +
    "and `data:` (one line of JSON); a comment line every 15 s keeps the connection alive.",
  content: { "text/event-stream": { schema: { type: "string" } } },
} as const;

/** How soon a client reconnects after the stream ends (the SSE `retry` field). */
const RETRY_MS = 2000;

/** `id:`, `event:` and `data:` lines of one message; no field holds a line break. */
export function frame(message: EventStreamMessage): string {
  let text = message.comment === undefined ? "" : `: ${message.comment}\n`;
  if (message.event !== undefined) text += `event: ${message.event}\n`;
  if (message.id !== undefined) text += `id: ${message.id}\n`;
  if (message.data !== undefined) text += `data: ${JSON.stringify(message.data)}\n`;
  return `${text}\n`;
}

/**
 * Answers the request with a `text/event-stream` kept open: the reply is taken over from
 * Fastify (the headers set so far, request id and CORS included, go out now), a heartbeat
 * comment is written every `heartbeatMs`, and writes wait while the client is backed up.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamOptions,
): EventStream {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    // nginx and similar proxies would buffer the stream otherwise.
    "x-accel-buffering": "no",
    // A stream is the connection's last response: once it ends (lifetime, shutdown) the socket
    // closes too, instead of idling as keep-alive and holding a shutdown's drain.
    connection: "close",
  });
  // Fastify's onResponse hooks never run for a reply taken over: the metrics count it here, as
  // answered once its head is out (its duration is the time to open, not the stream's life).
  countTakenOverResponse(request, reply, routeConfigOf(request).url);
  response.write(`retry: ${RETRY_MS}\n: stream open\n\n`);
  let ended = false;
  const check = (fresh: boolean) => {
    if (ended || !options.stillAllowed) return;
    options.stillAllowed(fresh).then((allowed) => allowed || end(), end);
  };
  const heartbeat = setInterval(() => response.write(": heartbeat\n\n"), options.heartbeatMs);
  const lifetime = setTimeout(() => end(), options.maxMs);
  const periodic = options.stillAllowed
    ? setInterval(() => check(false), options.recheckMs ?? 60_000)
    : undefined;
  heartbeat.unref();
  lifetime.unref();
  periodic?.unref();
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearInterval(periodic);
    clearTimeout(lifetime);
    if (!response.writableEnded) response.end();
    options.onEnd();
  };
  response.on("close", end);
  request.raw.on("error", end);
  return {
    async send(message) {
      if (ended) return;
      if (response.write(frame(message))) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off("drain", done);
          response.off("close", done);
          resolve();
        };
        response.on("drain", done);
        response.on("close", done);
      });
    },
    end,
    recheck: () => check(true),
  };
}
