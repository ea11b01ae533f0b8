/**
 * Whether the standard OTEL_* variables ask for traces. Kept apart from otel-sdk.ts so that
 * deciding costs nothing: the SDK is imported only when this says yes.
 */
export function tracingConfigured(env: Record<string, string | undefined>): boolean {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").trim().toLowerCase();
  if (exporters === "none") return false;
  return (
    exporters !== "" ||
    Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT) ||
    Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
  );
}
