import { randomBytes } from "node:crypto";
import type { PartnerClient } from "./client.js";
import { signWebhook } from "./webhooks/sign.js";

export interface ListenOptions {
  /** The local receiver, e.g. `http://localhost:3000/webhooks`. */
  forwardTo: string;
  /** Only these event types (default: all). */
  events?: readonly string[];
  /** The signing secret of this session (default: a new one, see `newListenSecret`). */
  secret: string;
  /** Ends listening. */
  signal?: AbortSignal;
  /** Told of each forwarded event and the receiver's answer. */
  onForward?(result: ForwardResult): void;
  /** Told when the stream connects or drops (it reconnects by itself). */
  onConnection?(state: { connected: boolean; resumed: boolean; error?: Error }): void;
  /** Per forward (default 10 000 ms, as the gateway's delivery timeout). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface ForwardResult {
  id: string;
  type: string;
  /** The receiver's HTTP status; null when it could not be reached (see `error`). */
  status: number | null;
  error?: string;
  durationMs: number;
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

/**
 * `stripe listen` for Orderline: reads the partner's event stream and POSTs each event to a
 * local receiver exactly as a webhook delivery arrives (same body bytes, same headers, signed
 * with `secret` by the delivery scheme), so the receiver's verification code runs unchanged.
 * The gateway never connects to the receiver: this process does. Resolves when `signal` aborts.
 */
export async function listen(client: PartnerClient, options: ListenOptions): Promise<void> {
  const target = forwardTarget(options.forwardTo);
  const send = options.fetch ?? globalThis.fetch;
  const stream = client.events.stream({
    ...(options.events ? { events: options.events } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onConnection ? { onConnection: options.onConnection } : {}),
  });
  for await (const event of stream) {
    const started = Date.now();
    const headers = {
      "content-type": "application/json",
      "user-agent": "Orderline-Webhooks/1 (orderline-partner listen)",
      "orderline-event-id": event.id,
      "orderline-event-type": event.type,
      "orderline-signature": signWebhook({ payload: event.data, secret: options.secret }),
    };
    let result: ForwardResult;
    try {
      const response = await send(target, {
        method: "POST",
        headers,
        body: event.data,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.body?.cancel().catch(() => {});
      result = {
        id: event.id,
        type: event.type,
        status: response.status,
        durationMs: Date.now() - started,
      };
    } catch (error) {
      result = {
        id: event.id,
        type: event.type,
        status: null,
        error: (error as Error).message,
        durationMs: Date.now() - started,
      };
    }
    options.onForward?.(result);
  }
}
