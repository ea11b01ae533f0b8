/**
 * Tracing switched on inside the test process, as otel-sdk.ts switches it on in `serve`: a real
 * tracer provider (AsyncLocalStorage context, W3C propagation) whose spans are kept in memory,
 * and the gateway's `tracingEnabled()` true. Suites that exercise the store through streams and
 * webhooks run once more with it (`tracingModes`), so every store call goes through the span
 * path of the store probe; the HTTP instrumentation itself runs in the process tests
 * (observability.test.ts, tracing-safety.test.ts).
 */

import { node, tracing } from "@opentelemetry/sdk-node";
import { afterAll, beforeAll } from "vitest";
import { enableTracing, shutdownTracing } from "../../src/observability/tracing.js";
import { afterEachFile } from "./file-scope.js";
import type { StoreKind } from "./stores.js";

const exporter = new tracing.InMemorySpanExporter();
let provider: node.NodeTracerProvider | undefined;

/** Turns tracing on from now until `tracingOff` (or the end of the file). */
export function tracingOn(): void {
  if (provider === undefined) {
    provider = new node.NodeTracerProvider({
      spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
    });
    provider.register();
  }
  exporter.reset();
  enableTracing(async () => {});
}

export const tracingOff = (): Promise<void> => shutdownTracing();

/** The names of the spans ended since tracing was turned on. */
export const spanNames = (): string[] => exporter.getFinishedSpans().map((span) => span.name);

// Files share their worker's modules: tracing never outlives the file that turned it on.
afterEachFile(tracingOff);

interface TracingMode {
  kind: StoreKind;
  tracing: boolean;
  /** For test titles: "sqlite store" or "sqlite store, tracing on". */
  label: string;
}

/**
 * Each store with tracing off, then SQLite once more with tracing on: the probe is the same
 * for both stores (store-probe.test.ts checks every method of both), so a second store with
 * tracing on would double the suite for nothing.
 */
export function tracingModes(kinds: readonly StoreKind[]): TracingMode[] {
  return [
    ...kinds.map((kind) => ({ kind, tracing: false, label: `${kind} store` })),
    { kind: "sqlite", tracing: true, label: "sqlite store, tracing on" },
  ];
}

/** In a describe block: tracing on for its tests when `mode` says so (checked to make spans). */
export function useTracing(mode: { tracing: boolean }): void {
  if (!mode.tracing) return;
  beforeAll(tracingOn);
  afterAll(async () => {
    const stores = spanNames().filter((name) => name.startsWith("store."));
    await tracingOff();
    if (stores.length === 0) throw new Error("tracing was on but no store call made a span");
  });
}
