import { register } from "node:module";
import { createAddHookMessageChannel } from "import-in-the-middle";
import { enableTracing } from "./tracing.js";

/**
 * Starts the OpenTelemetry SDK for this process: OTLP export as the OTEL_* variables say
 * (endpoint, protocol, headers, sampler, resource), W3C trace context, and the HTTP, pg and
 * ioredis instrumentations. Imported (by cli/main.ts) only when otel-config.ts finds tracing
 * configured, and before anything that loads the instrumented modules.
 */
export async function startTracing(): Promise<void> {
  // pg and ioredis are imported as ES modules: patching them needs the loader hook, told to
  // wrap only the modules an instrumentation asks for (ours would otherwise load twice).
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  const [
    { NodeSDK },
    { HttpInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
    privacy,
  ] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/instrumentation-ioredis"),
    import("./otel-privacy.js"),
  ]);
  const probes = new Set(["/health", "/ready"]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "orderline-gateway",
    // traceparent in and out, never a caller's tracestate or baggage (otel-privacy.ts).
    textMapPropagator: new privacy.TraceparentPropagator(),
    instrumentations: [
      new HttpInstrumentation({
        // Probes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (request) => probes.has((request.url ?? "").split("?")[0] ?? ""),
        // Applied after the instrumentation's own attributes: no query string in any span.
        startIncomingSpanHook: privacy.incomingUrlAttributes,
        startOutgoingSpanHook: privacy.outgoingUrlAttributes,
      }),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  enableTracing(() => sdk.shutdown());
}
