import { createGateway } from "../../gateway.js";
import { type MetricsServer, startMetricsServer } from "../../observability/metrics-server.js";
import { shutdownTracing } from "../../observability/tracing.js";
import { ensureDemo } from "../demo.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, stringOption } from "../options.js";
import { type CommandSpec, helpOf, parseFor } from "../spec.js";

export const SERVE: CommandSpec = {
  name: "serve",
  summary:
    "Runs the gateway; creates the store and applies pending migrations first. PORT, HOST, DATABASE_URL and LOG_LEVEL are read from the environment too; a flag wins.",
  json: false,
  options: {
    port: { type: "string", value: "N", help: "listening port (default 3000; 0 picks a free one)" },
    host: {
      type: "string",
      value: "H",
      help: "listening address (default 127.0.0.1; 0.0.0.0 for every interface)",
    },
    "log-level": {
      type: "string",
      value: "L",
      help: "pino level: trace … fatal, silent (default info)",
    },
    demo: {
      type: "boolean",
      help: "create a demo partner (and tenant with an admin user) on an empty store and print how to send a signed order",
    },
  },
};

export interface RunningServer {
  url: string;
  /** The `/metrics` address, unless GATEWAY_METRICS_LISTEN=off or its port was taken. */
  metricsUrl: string | undefined;
  instanceId: string;
  close(): Promise<void>;
}

export async function serve(args: string[], io: CliIo): Promise<RunningServer> {
  const { values } = parseFor(SERVE, args);
  const portOption = stringOption(values, "port");
  if (portOption !== undefined && !/^\d{1,5}$/.test(portOption))
    throw new UsageError("--port must be a number.", helpOf(SERVE));
  const base = configFrom(io, values.db);
  const config = {
    ...base,
    port: portOption === undefined ? base.port : Number(portOption),
    host: stringOption(values, "host") ?? base.host,
    logLevel: stringOption(values, "log-level") ?? base.logLevel,
  };
  const gateway = await createGateway({ config });
  let address: string;
  let metrics: MetricsServer | undefined;
  try {
    address = await gateway.app.listen({ port: config.port, host: config.host });
    metrics = await startMetricsServer(config.observability, gateway.app.log);
  } catch (error) {
    // Close the store (and its writer thread) so the process can exit with the error.
    await gateway.close();
    throw error;
  }
  const port = new URL(address).port;
  const url = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  const consoleAt = config.consoleDir ? `, console: ${url}/console/` : "";
  const metricsAt = metrics ? `, metrics: ${metrics.url}` : "";
  const line = lineWriter(io, config.observability.instanceId);
  line(
    `Orderline gateway listening on ${url} (store: ${gateway.store.kind}, docs: ${url}/docs${consoleAt}${metricsAt})`,
    { event: "listening", url, store: gateway.store.kind, metrics_url: metrics?.url },
  );
  if (values.demo) {
    // Instructions for the person at the terminal: stdout carries JSON lines only.
    const text = await ensureDemo(gateway, config.dataDir, url, io.cwd);
    if (text) io.stderr(text);
  }
  return {
    url,
    metricsUrl: metrics?.url,
    instanceId: config.observability.instanceId,
    close: async () => {
      await metrics?.close();
      await gateway.close();
    },
  };
}

/**
 * The CLI's own announcements as JSON lines in the logger's shape (pino level 30), written
 * whatever LOG_LEVEL filters: scripts find the address in them, and stdout stays JSON only.
 */
function lineWriter(io: CliIo, instance: string) {
  return (msg: string, fields: object = {}) =>
    io.stdout(
      `${JSON.stringify({ level: 30, time: Date.now(), service: "orderline-gateway", instance, ...fields, msg })}\n`,
    );
}

/** `serve` as a long-running command: stops cleanly on SIGINT/SIGTERM, finishing in-flight requests. */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const server = await serve(args, io);
  const stop = () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    server
      .close()
      .then(() => shutdownTracing())
      .then(
        () => lineWriter(io, server.instanceId)("Gateway stopped.", { event: "stopped" }),
        (error: unknown) => io.stderr(`Error while stopping: ${(error as Error).message}\n`),
      );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return EXIT.ok;
}
