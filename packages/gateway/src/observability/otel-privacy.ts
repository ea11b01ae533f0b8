import type { IncomingMessage, RequestOptions } from "node:http";
import {
  type Context,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { core } from "@opentelemetry/sdk-node";

/**
 * What the gateway's traces keep from and pass to third parties (docs/decisions.md, "Traces
 * pass on our traceparent only, and no query string"). Loaded with the SDK (otel-sdk.ts).
 */

/** What a span attribute shows instead of a query string. */
const REDACTED_QUERY = "REDACTED";

/** `path` without its query; a query, if any, shown as `?REDACTED`. */
function withoutQuery(path: string): string {
  const at = path.indexOf("?");
  return at === -1 ? path : `${path.slice(0, at)}?${REDACTED_QUERY}`;
}

/**
 * `url.full` of an outgoing request (a webhook delivery) with its query hidden: a partner's
 * receiver URL may carry a secret there (`?token=…`), and spans go to a tracing backend its
 * operators read. Credentials in the URL never appear.
 */
export function outgoingUrlAttributes(options: RequestOptions): Record<string, string> {
  const protocol = options.protocol ?? "http:";
  const host = options.hostname ?? options.host ?? "localhost";
  const port = options.port ? `:${options.port}` : "";
  const defaultPort =
    (protocol === "https:" && port === ":443") || (protocol === "http:" && port === ":80");
  return {
    "url.full": `${protocol}//${host}${defaultPort ? "" : port}${withoutQuery(options.path ?? "/")}`,
  };
}

/** `url.query` of an incoming request hidden: queries carry personal data (`purchase_order_no`). */
export function incomingUrlAttributes(request: IncomingMessage): Record<string, string> {
  return (request.url ?? "").includes("?") ? { "url.query": REDACTED_QUERY } : {};
}

const traceparentOnly = ({ traceId, spanId, traceFlags, isRemote }: SpanContext): SpanContext => ({
  traceId,
  spanId,
  traceFlags,
  ...(isRemote === undefined ? {} : { isRemote }),
});

/**
 * W3C trace context without `tracestate`, and no baggage: a caller's trace id continues through
 * the gateway and on to webhook receivers, but nothing else a tenant sends (vendor state,
 * baggage entries) is kept or passed on to a partner.
 */
export class TraceparentPropagator implements TextMapPropagator {
  readonly #w3c = new core.W3CTraceContextPropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const span = trace.getSpanContext(context);
    if (span === undefined) return;
    this.#w3c.inject(trace.setSpanContext(context, traceparentOnly(span)), carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const extracted = this.#w3c.extract(context, carrier, getter);
    const span = trace.getSpanContext(extracted);
    return span === undefined ? extracted : trace.setSpanContext(extracted, traceparentOnly(span));
  }

  fields(): string[] {
    return ["traceparent"];
  }
}
