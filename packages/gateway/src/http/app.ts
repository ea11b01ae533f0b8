import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { installHttpMetrics } from "../observability/metrics.js";
import { nameRequestSpan, tracingEnabled } from "../observability/tracing.js";
import { trackAllowedMethods } from "./allowed-methods.js";
import { installSerializers } from "./compile-once.js";
import { installErrorHandling } from "./error-handler.js";
import { installGracefulClose } from "./graceful-close.js";
import { installOpenApi } from "./openapi.js";
import { clientErrorHandler, frameworkErrors } from "./raw-errors.js";
import { installRequestDeadline } from "./request-deadline.js";
import { requestIdOf } from "./request-id.js";
import { routeConfigOf } from "./route-config.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import { installTextBoundary } from "./text-boundary.js";
import { installValidators } from "./validation.js";

interface AppOptions {
  logger: Logger;
  bodyLimitBytes: number;
  /** How long open connections are answered 503 after close starts (graceful-close.ts). */
  drainMs?: number;
  /** Ends long-lived responses (event streams) as the drain starts (graceful-close.ts). */
  beforeDrain?: () => void;
  /** A request not answered by then gets 503 store_unavailable (GATEWAY_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Which peers may set X-Forwarded-For (GATEWAY_TRUST_PROXY); `request.ip` follows it. */
  trustProxy?: false | number | string[];
  /** The OpenAPI `webhooks` the partner reference documents (from the event payload schemas). */
  webhooks?: Record<string, unknown>;
  /** Registers the feature plugins (auth, orders) once the common parts are in place. */
  routes: (app: FastifyInstance) => Promise<void>;
}

/**
 * The HTTP shell: request ids, logging, strict JSON parsing and validation, problem+json errors
 * and OpenAPI. Feature plugins own their routes and schemas.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: options.bodyLimitBytes,
    // A hop count trusts that many proxies in front of the gateway, whatever their address.
    trustProxy:
      typeof options.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (options.trustProxy as number)
        : (options.trustProxy ?? false),
    // Requests are small; a slow client must not hold a socket open for long.
    requestTimeout: 30_000,
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { ignoreTrailingSlash: true },
    // Errors before routing answer problem+json too.
    clientErrorHandler,
    frameworkErrors,
    // Closing: our own hook answers problem+json with Retry-After (graceful-close.ts).
    return503OnClosing: false,
  }) as unknown as FastifyInstance;

  // Only JSON bodies are accepted; anything else (text/plain included) is a 415.
  app.removeContentTypeParser(["text/plain"]);
  // From routing to the reply: a store that hangs must not hold a partner's request forever
  // (error-handler.ts answers it as a store outage; the work left running is bounded too).
  installRequestDeadline(app, options.requestTimeoutMs ?? 0);
  installValidators(app);
  installSerializers(app);
  installErrorHandling(app, trackAllowedMethods(app));
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    reply.headers(SECURITY_HEADERS);
    done();
  });
  installGracefulClose(app, {
    drainMs: options.drainMs ?? 0,
    ...(options.beforeDrain ? { beforeDrain: options.beforeDrain } : {}),
  });
  installHttpMetrics(app, (request) => routeConfigOf(request).url);
  if (tracingEnabled())
    app.addHook("onRequest", (request, _reply, done) => {
      nameRequestSpan(request.method, routeConfigOf(request).url ?? "unmatched");
      done();
    });
  installTextBoundary(app);
  await installOpenApi(app, options.webhooks);
  await options.routes(app);
  return app;
}
