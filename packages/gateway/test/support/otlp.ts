import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string } }[];
}

/** A span's string attributes as one object. */
export const attributesOf = (span: ExportedSpan): Record<string, string> =>
  Object.fromEntries(
    (span.attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? "",
    ]),
  );

/** An OTLP/HTTP trace receiver (JSON encoding) on a real socket: the spans the gateway exports. */
export async function otlpCollector(): Promise<{
  url: string;
  spans: ExportedSpan[];
  close(): void;
}> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The OTEL_* settings (docs/deploy.md) that send a process's spans to `collector` promptly. */
export const otelEnv = (collectorUrl: string): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "100",
  OTEL_METRICS_EXPORTER: "none",
  OTEL_LOGS_EXPORTER: "none",
});
