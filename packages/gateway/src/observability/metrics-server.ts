import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import { ConfigError, type ObservabilityConfig } from "../config/config.js";
import { type ErrorCode, problemOf } from "../problems/catalogue.js";
import { scrape } from "./metrics.js";

/** Equal-length digests: comparing them leaks neither the token's content nor its length. */
const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

export interface MetricsServer {
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

/**
 * `/metrics` on a listener of its own (GATEWAY_METRICS_LISTEN), so the API's port, which a
 * proxy exposes to partners, never serves it; with GATEWAY_METRICS_TOKEN, a bearer token too.
 * An address that cannot be listened on (a port already taken) is a bad setting: ConfigError,
 * exit 2.
 */
export async function startMetricsServer(
  config: ObservabilityConfig,
  log: Pick<FastifyBaseLogger, "debug" | "error">,
): Promise<MetricsServer | undefined> {
  const listen = config.metricsListen;
  if (listen === undefined) return undefined;
  const token = config.metricsToken;
  const refuse = (
    response: import("node:http").ServerResponse,
    code: ErrorCode,
    detail: string,
    headers: Record<string, string> = {},
  ) => {
    const problem = problemOf(code, detail);
    response
      .writeHead(problem.status, { "content-type": "application/problem+json", ...headers })
      .end(JSON.stringify(problem));
  };
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    log.debug({ method: request.method, url: path }, "metrics request");
    if (path !== "/metrics") return refuse(response, "not_found", `No route for ${path}.`);
    if (request.method !== "GET" && request.method !== "HEAD")
      return refuse(response, "method_not_allowed", "/metrics takes GET.", { allow: "GET, HEAD" });
    if (token !== undefined) {
      const header = request.headers.authorization ?? "";
      const sent = header.startsWith("Bearer ") ? header.slice(7) : undefined;
      if (sent === undefined)
        return refuse(
          response,
          "token_missing",
          "Send Authorization: Bearer <GATEWAY_METRICS_TOKEN>.",
          {
            "www-authenticate": "Bearer",
          },
        );
      if (!timingSafeEqual(digest(sent), digest(token)))
        return refuse(response, "token_invalid", "The metrics token is not valid.", {
          "www-authenticate": "Bearer",
        });
    }
    scrape().then(
      ({ body, contentType }) => {
        response.writeHead(200, { "content-type": contentType });
        response.end(request.method === "HEAD" ? undefined : body);
      },
      (error: unknown) => {
        log.error({ err: (error as Error).message }, "metrics scrape failed");
        refuse(response, "internal_error", "The metrics could not be collected.");
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(listen.port, listen.host, () => resolve());
    });
  } catch (error) {
    // Like any other bad setting: a second instance on one host would otherwise serve without
    // /metrics, and its alerts would go quiet with nothing but a log line to say why.
    const reason =
      (error as NodeJS.ErrnoException).code === "EADDRINUSE"
        ? "is taken by another process"
        : `cannot be listened on (${(error as Error).message})`;
    throw new ConfigError(
      `GATEWAY_METRICS_LISTEN=${listen.host}:${listen.port}: the metrics address ${reason}; give each instance on a host its own port, or off`,
    );
  }
  const { port } = server.address() as AddressInfo;
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "localhost" : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
