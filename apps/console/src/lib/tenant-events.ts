import { useEffect, useRef } from "react";

/**
 * The tenant's live events (GET /v1/tenant/events, docs/gateway/tenant-api.md): order events
 * with `data.order` as the orders list shows it, and `vocabulary.changed` with
 * `data.namespace` and `data.language`. Read with fetch and a stream reader (EventSource
 * cannot send the Authorization header API clients use), over one connection however many subscribers, which
 * reconnects with Last-Event-ID so nothing is missed across a dropped connection.
 */
interface TenantEvent {
  /** The SSE id (opaque). */
  id: string | undefined;
  /** `order.created`, `order.accepted`, … or `vocabulary.changed`. */
  type: string;
  data: unknown;
}

type TenantEventListener = (event: TenantEvent) => void;

interface SubscribeOptions {
  /**
   * Renews the session's token (the console's `api.refresh`, which refreshes once for all
   * callers): called when the stream is refused with `token_expired`, then it reconnects.
   * Without it, the stream waits for the rest of the console to renew the token.
   */
  refresh?: () => Promise<unknown>;
}

const listeners = new Set<TenantEventListener>();
let connection: AbortController | undefined;
let lastEventId: string | undefined;
let refresh: (() => Promise<unknown>) | undefined;

/** Reconnect delays: the server's `retry:` first, then doubling up to this after failures. */
const MAX_DELAY_MS = 30_000;

interface Parsed {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** Complete messages off the front of `buffer` (SSE framing); returns them and what is left. */
export function parseEventStream(buffer: string): { messages: Parsed[]; rest: string } {
  const messages: Parsed[] = [];
  const normalised = buffer.replace(/\r\n?/g, "\n");
  let rest = normalised;
  for (let end = rest.indexOf("\n\n"); end >= 0; end = rest.indexOf("\n\n")) {
    const message: Parsed = {};
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

const dispatch = (message: Parsed): void => {
  // An id-only message moves the resume point without being an event (as EventSource does).
  if (message.id !== undefined) lastEventId = message.id;
  if (message.data === undefined || message.event === undefined) return;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  const event = { id: lastEventId, type: message.event, data };
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch (error) {
      console.error(error);
    }
  }
};

/** Reads one connection to its end; resolves the server's retry delay, if it sent one. */
async function readOnce(
  signal: AbortSignal,
): Promise<{ retry?: number; status: number; code?: string }> {
  // Same origin: the session cookie goes with it.
  const response = await fetch("/v1/tenant/events", {
    headers: {
      accept: "text/event-stream",
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    },
    signal,
    cache: "no-store",
  });
  if (!response.ok || !response.body) {
    // A resume point the gateway no longer keeps: start again from now.
    if (response.status === 400) lastEventId = undefined;
    const problem = (await response.json().catch(() => ({}))) as { code?: unknown };
    return {
      status: response.status,
      ...(typeof problem.code === "string" ? { code: problem.code } : {}),
    };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let retry: number | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { status: 200, ...(retry === undefined ? {} : { retry }) };
    const parsed = parseEventStream(buffer + value);
    buffer = parsed.rest;
    for (const message of parsed.messages) {
      if (message.retry !== undefined) retry = message.retry;
      dispatch(message);
    }
  }
}

/** Keeps a connection open while anyone subscribes, reconnecting after each end or failure. */
async function run(controller: AbortController): Promise<void> {
  let failures = 0;
  while (!controller.signal.aborted) {
    let delay: number;
    try {
      const { retry, status, code } = await readOnce(controller.signal);
      if (code === "token_expired" && refresh && failures === 0) {
        failures += 1;
        await refresh().catch(() => {});
        continue;
      }
      failures = status === 200 ? 0 : failures + 1;
      delay = status === 200 ? (retry ?? 2000) : Math.min(MAX_DELAY_MS, 1000 * 2 ** failures);
    } catch {
      failures += 1;
      delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** failures);
    }
    if (controller.signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Calls `onEvent` for each live event of the signed-in tenant until the returned function is
 * called. Subscribers share one connection; the last to leave closes it.
 */
export function subscribeTenantEvents(
  onEvent: TenantEventListener,
  options: SubscribeOptions = {},
): () => void {
  listeners.add(onEvent);
  if (options.refresh) refresh = options.refresh;
  if (!connection) {
    connection = new AbortController();
    void run(connection);
  }
  return () => {
    listeners.delete(onEvent);
    if (listeners.size === 0 && connection) {
      connection.abort();
      connection = undefined;
      // Signing out or leaving: the next subscriber starts from now.
      lastEventId = undefined;
    }
  };
}

/** React: `onEvent` for each live event while the component is mounted. */
export function useTenantEvents(
  onEvent: TenantEventListener,
  options: SubscribeOptions = {},
): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  const renew = options.refresh;
  useEffect(
    () => subscribeTenantEvents((event) => latest.current(event), renew ? { refresh: renew } : {}),
    [renew],
  );
}
