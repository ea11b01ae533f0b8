import { unknownSettingWarnings } from "../../config/config.js";
import { createGateway, type Gateway } from "../../gateway.js";
import { type MetricsServer, startMetricsServer } from "../../observability/metrics-server.js";
import { shutdownTracing } from "../../observability/tracing.js";
import { poolFit, poolFitWarning } from "../../store/postgres/pool-fit.js";
import { PostgresStore } from "../../store/postgres/postgres-store.js";
import { ensureDemo } from "../demo.js";
import { type CliIo, EXIT, UsageError } from "../io.js";
import { configFrom, stringOption } from "../options.js";
import { guardProcess } from "../process-guards.js";
import { closeWithin } from "../shutdown-deadline.js";
import { helpOf, parseFor } from "../spec.js";
import { SERVE } from "./serve-spec.js";

interface RunningServer {
  url: string;
  /** Seconds `/ready` says 503 after SIGTERM while requests are still served. */
  drainReadySeconds: number;
  /** `/ready` answers 503 from now on; requests are still served. */
  leave(): void;
  /** The `/metrics` address, unless GATEWAY_METRICS_LISTEN=off. */
  metricsUrl: string | undefined;
  instanceId: string;
  /** The gateway's logger (JSON lines on stdout). */
  log: Gateway["app"]["log"];
  close(): Promise<void>;
  /** How long a SIGTERM shutdown may take before the process exits anyway. */
  shutdownTimeoutSeconds: number;
}

/** Warns (does not refuse) when the pools of every instance cannot fit the server's limit. */
async function warnWhenPoolCannotFit(gateway: Gateway, io: CliIo): Promise<void> {
  const { store, config } = gateway;
  if (!(store instanceof PostgresStore)) return;
  try {
    const fit = await poolFit(store.pool, config.pgPoolMax, config.instances);
    const warning = poolFitWarning(fit, config.pgPoolMax, config.instances);
    if (warning) io.stderr(`orderline-gateway: warning: ${warning}\n`);
  } catch (error) {
    io.stderr(
      `orderline-gateway: warning: could not read max_connections: ${(error as Error).message}\n`,
    );
  }
}

export async function serve(args: string[], io: CliIo): Promise<RunningServer> {
  const { values } = parseFor(SERVE, args);
  const portOption = stringOption(values, "port");
  if (portOption !== undefined && !/^\d{1,5}$/.test(portOption))
    throw new UsageError("--port must be a number.", helpOf(SERVE));
  // Flags go through the same validation as the variables they stand for.
  const env = {
    ...io.env,
    PORT: portOption ?? io.env.PORT,
    HOST: stringOption(values, "host") ?? io.env.HOST,
    LOG_LEVEL: stringOption(values, "log-level") ?? io.env.LOG_LEVEL,
  };
  const config = configFrom({ ...io, env }, values.db);
  for (const warning of unknownSettingWarnings(io.env))
    io.stderr(`orderline-gateway: warning: ${warning}\n`);
  const gateway = await createGateway({ config });
  await warnWhenPoolCannotFit(gateway, io);
  let address: string;
  let metrics: MetricsServer | undefined;
  try {
    // Metrics first: an instance whose metrics address is taken exits before it takes traffic.
    metrics = await startMetricsServer(config.observability, gateway.app.log);
    address = await gateway.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Close the store (and its writer thread) so the process can exit with the error.
    await metrics?.close();
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
  if (gateway.store instanceof PostgresStore && !gateway.store.features.listen)
    line(
      `GATEWAY_PG_POOLER=${config.pgPooler}: no LISTEN and no named prepared statements through the pooler; webhook work is found by polling every ${config.webhooks.pollMs} ms, event streams read the outbox every ${config.events.pollMs} ms, and another instance's credential changes reach open streams on their periodic recheck`,
      { event: "pg_pooler", pooler: config.pgPooler, listen: false, named_statements: false },
    );
  if (values.demo) {
    // Instructions for the person at the terminal: stdout carries JSON lines only.
    const text = await ensureDemo(gateway, config.dataDir, url, io.cwd);
    if (text) io.stderr(text);
  }
  return {
    url,
    drainReadySeconds: config.drainReadySeconds,
    leave: () => gateway.readiness.leave(),
    shutdownTimeoutSeconds: config.shutdownTimeoutSeconds,
    metricsUrl: metrics?.url,
    instanceId: config.observability.instanceId,
    log: gateway.app.log,
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

/**
 * `serve` as a long-running command: stops cleanly on SIGINT/SIGTERM, finishing in-flight
 * requests. SIGTERM (an orchestrator's stop) first has `/ready` answer 503 for
 * GATEWAY_DRAIN_READY_SECONDS while requests are still served, so load balancers stop sending
 * before the drain refuses anything; SIGINT (a terminal's Ctrl-C), or a second signal, skips it.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const server = await serve(args, io);
  guardProcess(server.log, (code) => process.exit(code));
  let leaving: NodeJS.Timeout | undefined;
  // The shutdown deadline counts from the first signal, so the ready-drain phase spends from the
  // same budget and the whole stop stays inside an orchestrator's grace period.
  let signalledAt: number | undefined;
  const stop = () => {
    clearTimeout(leaving);
    process.off("SIGINT", stop);
    process.off("SIGTERM", leave);
    process.off("SIGTERM", stop);
    const spentSeconds = signalledAt === undefined ? 0 : (Date.now() - signalledAt) / 1000;
    closeWithin(
      () => server.close().then(() => shutdownTracing()),
      Math.max(1, Math.round(server.shutdownTimeoutSeconds - spentSeconds)),
      (code, message) => {
        io.stderr(`${message}\n`);
        process.exit(code);
      },
    ).then(
      () => lineWriter(io, server.instanceId)("Gateway stopped.", { event: "stopped" }),
      (error: unknown) => io.stderr(`Error while stopping: ${(error as Error).message}\n`),
    );
  };
  const leave = () => {
    signalledAt = Date.now();
    process.off("SIGTERM", leave);
    process.on("SIGTERM", stop);
    server.leave();
    leaving = setTimeout(stop, server.drainReadySeconds * 1000);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", leave);
  return EXIT.ok;
}
