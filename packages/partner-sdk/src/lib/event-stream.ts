import type { KeyObject } from "node:crypto";
import { PartnerApiError } from "../errors.js";
import { type SignatureVersion, signatureHeaders } from "../signing.js";
import { failureOf, isSkewRefusal, type Session } from "./session.js";
import { retryAfterMs } from "./transport.js";

/** One event off the gateway's stream: `data` is the exact webhook body (JSON text). */
export interface StreamEvent {
  /** The event id (`evt_…`), what receivers de-duplicate on. */
  id: string;
  /** `order.created`, `order.accepted`, … */
  type: string;
  data: string;
}

export interface EventStreamOptions {
  /** Only these event types (default: all). */
  events?: readonly string[];
  /** Resume after this event id (the stream's `id`). */
  lastEventId?: string;
  /** Ends the stream (the iterator finishes). */
  signal?: AbortSignal;
  /**
   * Told of each position marker the stream sends without an event (a stream opening names the
   * newest event so far): resuming from it loses nothing that came after. Events' own ids are
   * not reported here, since the caller decides when an event counts as handled.
   */
  onPosition?(id: string): void;
  /** Told each time a connection opens (`resumed`: with a Last-Event-ID) or drops. */
  onConnection?(state: { connected: boolean; resumed: boolean; error?: Error }): void;
}

export interface EventStreamDeps {
  baseUrl: string;
  fetch: typeof fetch;
  session: Session;
  privateKey: KeyObject;
  clientId: string;
  nextTimestamp: () => string;
  version: () => SignatureVersion;
  userAgent: string;
  learnServerSeconds(seconds: number): void;
  sleep(ms: number): Promise<void>;
}

interface Message {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** Complete server-sent event messages off the front of `buffer`, and what is left. */
export function parseEventStream(buffer: string): { messages: Message[]; rest: string } {
  const messages: Message[] = [];
  let rest = buffer.replace(/\r\n?/g, "\n");
  for (let end = rest.indexOf("\n\n"); end >= 0; end = rest.indexOf("\n\n")) {
    const message: Message = {};
    for (const line of rest.slice(0, end).split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") message.id = value;
      else if (field === "event") message.event = value;
      else if (field === "data")
        message.data = message.data === undefined ? value : `${message.data}\n${value}`;
      else if (field === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
    }
    messages.push(message);
    rest = rest.slice(end + 2);
  }
  return { messages, rest };
}

const MAX_DELAY_MS = 30_000;

/**
 * The partner's events as an async iterator over `GET /api/v1/events/stream`, each connection
 * signed afresh. A dropped connection is opened again with the last id as Last-Event-ID, so no
 * event is lost or repeated; refusals that a retry cannot fix throw PartnerApiError.
 */
export async function* streamEvents(
  deps: EventStreamDeps,
  options: EventStreamOptions = {},
): AsyncGenerator<StreamEvent> {
  const query = options.events?.length
    ? `?events=${encodeURIComponent(options.events.join(","))}`
    : "";
  const target = `/api/v1/events/stream${query}`;
  let lastEventId = options.lastEventId;
  // Ended by the caller's signal, or by leaving the loop (break, return, throw): either way the
  // connection closes, and a program that read what it wanted can exit.
  const own = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, own.signal]) : own.signal;
  try {
    let failures = 0;
    while (!signal?.aborted) {
      let response: Response;
      try {
        response = await connect(deps, target, lastEventId, signal);
      } catch (error) {
        if (signal?.aborted) return;
        // A refusal no retry fixes goes to the caller; a network failure is tried again.
        if (error instanceof PartnerApiError) throw error;
        failures += 1;
        options.onConnection?.({ connected: false, resumed: false, error: error as Error });
        await deps.sleep(Math.min(MAX_DELAY_MS, 500 * 2 ** failures));
        continue;
      }
      options.onConnection?.({ connected: true, resumed: lastEventId !== undefined });
      failures = 0;
      let retry = 1000;
      try {
        for await (const message of messagesOf(response, signal)) {
          if (message.retry !== undefined) retry = message.retry;
          if (message.id !== undefined) lastEventId = message.id;
          if (message.event !== undefined && message.data !== undefined && message.id !== undefined)
            yield { id: message.id, type: message.event, data: message.data };
          else if (message.id !== undefined && message.event === undefined)
            options.onPosition?.(message.id);
        }
        options.onConnection?.({ connected: false, resumed: false });
      } catch (error) {
        if (signal?.aborted) return;
        options.onConnection?.({ connected: false, resumed: false, error: error as Error });
      }
      if (!signal?.aborted) await deps.sleep(retry);
    }
  } finally {
    own.abort();
  }
}

async function* messagesOf(response: Response, signal?: AbortSignal): AsyncGenerator<Message> {
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  const abort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", abort, { once: true });
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const parsed = parseEventStream(buffer + value);
      buffer = parsed.rest;
      yield* parsed.messages;
    }
  } finally {
    signal?.removeEventListener("abort", abort);
    reader.releaseLock();
  }
}

/** Opens one signed connection; retries the refusals a fresh attempt fixes. */
async function connect(
  deps: EventStreamDeps,
  target: string,
  lastEventId: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const fixed = new Set<string>();
  for (;;) {
    const token = await deps.session.token();
    const { headers } = signatureHeaders(deps.privateKey, deps.version(), {
      clientId: deps.clientId,
      timestamp: deps.nextTimestamp(),
      method: "GET",
      target,
    });
    const response = await deps.fetch(`${deps.baseUrl}${target}`, {
      headers: {
        accept: "text/event-stream",
        "user-agent": deps.userAgent,
        authorization: `Bearer ${token}`,
        ...headers,
        ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
      },
      ...(signal ? { signal } : {}),
    });
    if (response.ok && response.body) return response;
    const body = await response.json().catch(() => ({}));
    const error = failureOf({
      status: response.status,
      headers: response.headers,
      body,
      requestId: response.headers.get("x-request-id") ?? undefined,
      attempts: 1,
    });
    if (error.code === "token_expired" && !fixed.has(error.code)) {
      fixed.add(error.code);
      await deps.session.expired(token);
    } else if (isSkewRefusal(error) && !fixed.has("skew")) {
      fixed.add("skew");
      deps.learnServerSeconds(error.problem.server_time as number);
    } else if (response.status === 503 || response.status === 429) {
      // Shutting down or too many streams for now: wait as told, then open again.
      await deps.sleep(retryAfterMs(response.headers.get("retry-after"), Date.now()) ?? 1000);
    } else throw error;
  }
}
