import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { BoundedCache } from "../lib/bounded-cache.js";

/**
 * The gateway's own spans over the OpenTelemetry API. Until otel-sdk.ts starts the SDK (only
 * when OTEL_* variables configure an exporter), every helper here returns at its first line:
 * no span objects, no context lookups, nothing remembered.
 */
let enabled = false;
let shutdown: (() => Promise<void>) | undefined;

export const tracingEnabled = (): boolean => enabled;

/** Called once the SDK runs; `stop` flushes and ends it (serve calls shutdownTracing on exit). */
export function enableTracing(stop: () => Promise<void>): void {
  enabled = true;
  shutdown = stop;
}

/** Flushes and ends the SDK; from then on the helpers here do nothing again. */
export async function shutdownTracing(): Promise<void> {
  const stop = shutdown;
  enabled = false;
  shutdown = undefined;
  await stop?.();
}

const tracer = () => trace.getTracer("orderline-gateway");

function endFailed(span: Span, error: unknown): void {
  span.recordException(error as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
  span.end();
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown })?.then === "function";

/**
 * Runs `work` in a child span `name` of the active context and returns exactly what it returns:
 * a value at once (the span ends before returning) or a promise (the span ends when it settles).
 * A synchronous function stays synchronous, so any method can be wrapped whatever its contract.
 */
export function spanAround<T>(name: string, work: () => T): T {
  if (!enabled) return work();
  return tracer().startActiveSpan(name, (span: Span) => {
    let result: T;
    try {
      result = work();
    } catch (error) {
      endFailed(span, error);
      throw error;
    }
    if (!isThenable(result)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endFailed(span, error);
        throw error;
      },
    ) as T;
  });
}

/**
 * Runs `work` in a child span `name` of the active (or `parent`) context. Tracing off, `work`'s
 * own promise is returned: no async frame of its own (two promises more per signed request).
 */
export function inSpan<T>(
  name: string,
  work: () => Promise<T>,
  parent?: Context,
  attributes?: Record<string, string | number>,
): Promise<T> {
  return enabled ? inTracedSpan(name, work, parent, attributes) : work();
}

async function inTracedSpan<T>(
  name: string,
  work: () => Promise<T>,
  parent?: Context,
  attributes?: Record<string, string | number>,
): Promise<T> {
  const options = attributes ? { attributes } : {};
  return tracer().startActiveSpan(name, options, parent ?? context.active(), async (span: Span) => {
    try {
      const result = await work();
      span.end();
      return result;
    } catch (error) {
      endFailed(span, error);
      throw error;
    }
  });
}

/** The active span's trace id (for log lines), when a span is active. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getSpan(context.active());
  if (span === undefined) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Names the request's server span after its route template (the HTTP instrumentation can't). */
export function nameRequestSpan(method: string, route: string): void {
  const span = trace.getSpan(context.active());
  span?.updateName(`${method} ${route}`);
  span?.setAttribute("http.route", route);
}

/**
 * The trace context of recent order events, so a webhook delivery continues the trace of the
 * request that caused it (and sends its traceparent to the receiver). Kept in this process for
 * an hour at most: a delivery made by another instance, or after a restart, starts a trace of
 * its own (docs/decisions.md).
 */
const eventTraces = new BoundedCache<string, Record<string, string>>(10_000);
const EVENT_TRACE_MS = 60 * 60 * 1000;

const eventKey = (orderId: string, status: string) => `${orderId} ${status}`;

export function rememberEventTrace(orderId: string, status: string): void {
  if (!enabled) return;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  // The trace id only: never a caller's tracestate or baggage on to a partner's receiver.
  if (carrier.traceparent)
    eventTraces.set(
      eventKey(orderId, status),
      { traceparent: carrier.traceparent },
      Date.now() + EVENT_TRACE_MS,
    );
}

/** The context a delivery of the event (order, status it moved to) runs in. */
export function eventTraceContext(orderId: string, status: string): Context | undefined {
  if (!enabled) return undefined;
  const carrier = eventTraces.get(eventKey(orderId, status), Date.now());
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : undefined;
}
