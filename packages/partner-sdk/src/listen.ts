import { randomBytes } from "node:crypto";
import type { PartnerClient } from "./client.js";
import { PartnerApiError } from "./errors.js";
import type { StreamEvent } from "./lib/event-stream.js";
import { signWebhook } from "./webhooks/sign.js";

export interface ListenOptions {
  /** The local receiver, e.g. `http://localhost:3000/webhooks`. */
  forwardTo: string;
  /** Only these event types (default: all). */
  events?: readonly string[];
  /** The signing secret (`whsec_…`; see `newListenSecret`, or keep one with `listenState`). */
  secret: string;
  /**
   * Resume after this event or position (`evt_…`, or `-` for the start of what the gateway
   * keeps): the id last told to `onPosition`. Unknown to the gateway (kept 7 days) → from now,
   * told to `onConnection` with the error.
   */
  lastEventId?: string;
  /** Ends listening. */
  signal?: AbortSignal;
  /** Told of each forward attempt and the receiver's answer. */
  onForward?(result: ForwardResult): void;
  /**
   * Told each time everything up to `id` has been handled: after an event was forwarded with a
   * 2xx, and of the stream's position markers. Keep it (a state file) and pass it back as
   * `lastEventId` after a restart, and nothing is lost while this process was down. `event`:
   * the event just forwarded (none for a marker).
   */
  onPosition?(id: string, event?: StreamEvent): void;
  /** Told when the stream connects or drops (it reconnects by itself). */
  onConnection?(state: { connected: boolean; resumed: boolean; error?: Error }): void;
  /** Per forward (default 10 000 ms, as the gateway's delivery timeout). */
  timeoutMs?: number;
  /** The wait before the second attempt of a forward (default 1000 ms), doubled each time. */
  retryInitialMs?: number;
  /** The longest wait between attempts (default 30 000 ms). */
  retryMaxMs?: number;
  fetch?: typeof fetch;
}

export interface ForwardResult {
  id: string;
  type: string;
  /** The receiver's HTTP status; null when it could not be reached (see `error`). */
  status: number | null;
  error?: string;
  durationMs: number;
  /** 1 for the first attempt at this event. */
  attempt: number;
  /** When the forward failed: the wait before the next attempt. */
  retryInMs?: number;
}

export interface ForwardOptions {
  secret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * POSTs one event to `target` exactly as a webhook delivery arrives (same body bytes, same
 * headers, signed with `secret` by the delivery scheme); one attempt.
 */
export async function forwardEvent(
  target: URL,
  event: StreamEvent,
  options: ForwardOptions,
): Promise<Pick<ForwardResult, "status" | "error" | "durationMs">> {
  const started = Date.now();
  const send = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  try {
    const response = await send(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Orderline-Webhooks/1 (orderline-partner listen)",
        "orderline-event-id": event.id,
        "orderline-event-type": event.type,
        "orderline-signature": signWebhook({ payload: event.data, secret: options.secret }),
      },
      body: event.data,
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    await response.body?.cancel().catch(() => {});
    return { status: response.status, durationMs: Date.now() - started };
  } catch (error) {
    return { status: null, error: (error as Error).message, durationMs: Date.now() - started };
  }
}

/** A signing secret for one `listen` session, shaped like an endpoint's (`whsec_…`). */
export const newListenSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`;

/** `forwardTo` as a URL; throws TypeError unless it is http(s). */
export function forwardTarget(forwardTo: string): URL {
  let url: URL;
  try {
    url = new URL(forwardTo);
  } catch {
    throw new TypeError(
      `--forward-to must be a URL such as http://localhost:3000/webhooks (got '${forwardTo}')`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`--forward-to must be an http or https URL (got '${forwardTo}')`);
  return url;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * `stripe listen` for Orderline: reads the partner's event stream and POSTs each event to a
 * local receiver exactly as a webhook delivery arrives, so the receiver's verification code
 * runs unchanged. The gateway never connects to the receiver: this process does. An event the
 * receiver does not take (no answer, or not 2xx) is tried again with backoff, in order, until
 * it does: a receiver being restarted misses nothing. Resolves when `signal` aborts.
 */
export async function listen(client: PartnerClient, options: ListenOptions): Promise<void> {
  const target = forwardTarget(options.forwardTo);
  const initial = options.retryInitialMs ?? 1000;
  const max = options.retryMaxMs ?? 30_000;
  const signal = options.signal;
  let lastEventId = options.lastEventId;
  const streamOptions = () => ({
    ...(options.events ? { events: options.events } : {}),
    ...(signal ? { signal } : {}),
    ...(options.onConnection ? { onConnection: options.onConnection } : {}),
    ...(lastEventId !== undefined ? { lastEventId } : {}),
    onPosition: (id: string) => {
      lastEventId = id;
      options.onPosition?.(id);
    },
  });
  for (;;) {
    try {
      for await (const event of client.events.stream(streamOptions())) {
        for (let attempt = 1; !signal?.aborted; attempt++) {
          const sent = await forwardEvent(target, event, {
            secret: options.secret,
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
            ...(options.fetch ? { fetch: options.fetch } : {}),
            ...(signal ? { signal } : {}),
          });
          if (signal?.aborted) return; // an answer cut short by the stop is not the receiver's
          const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
          const retryInMs = ok ? undefined : Math.min(max, initial * 2 ** (attempt - 1));
          options.onForward?.({
            id: event.id,
            type: event.type,
            ...sent,
            attempt,
            ...(retryInMs !== undefined ? { retryInMs } : {}),
          });
          if (ok) break;
          await pause(retryInMs as number, signal);
        }
        if (signal?.aborted) return;
        lastEventId = event.id;
        options.onPosition?.(event.id, event);
      }
      return;
    } catch (error) {
      // A resume point the gateway no longer keeps: say so, and go on from now.
      if (
        error instanceof PartnerApiError &&
        error.code === "last_event_id_invalid" &&
        lastEventId !== undefined
      ) {
        options.onConnection?.({ connected: false, resumed: false, error });
        lastEventId = undefined;
        continue;
      }
      throw error;
    }
  }
}
