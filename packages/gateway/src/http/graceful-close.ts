import type { FastifyInstance } from "fastify";
import { ApiError } from "../problems/api-error.js";

interface GracefulCloseOptions {
  /**
   * How long, after close starts (SIGTERM), open connections are still served: every request
   * on them is answered 503 `shutting_down` with `Connection: close` and Retry-After, so a
   * client learns to go elsewhere instead of having its kept-alive connection reset under it.
   */
  drainMs: number;
  /**
   * Called as the drain starts: ends responses that never finish by themselves (event streams),
   * whose connections would otherwise hold the drain for its whole length.
   */
  beforeDrain?: () => void;
}

const RETRY_AFTER_SECONDS = 1;
const POLL_MS = 50;

const openConnections = (app: FastifyInstance): Promise<number> =>
  new Promise((resolve) => app.server.getConnections((error, count) => resolve(error ? 0 : count)));

/**
 * Graceful close for `app.close()` (SIGTERM). The requests in flight run to completion and are
 * answered. For up to `drainMs`, while connections are open, the listener stays up and every
 * new request gets a 503 problem+json with `Connection: close` (a load balancer retries it on
 * another instance); then the listener closes, idle keep-alive connections are closed at once
 * and the rest as soon as they fall idle, instead of holding the process open until their
 * keep-alive timeout. Responses sent while closing carry `Connection: close`.
 */
export function installGracefulClose(app: FastifyInstance, options: GracefulCloseOptions): void {
  let closing = false;
  let sweeper: NodeJS.Timeout | undefined;
  // Callback hooks: an async hook costs each request a promise and a turn of the microtask queue.
  app.addHook("onRequest", (_request, _reply, done) => {
    if (!closing) return done();
    done(
      new ApiError(
        "shutting_down",
        "This gateway instance is shutting down; send the request again (to another instance).",
        { retry_after: RETRY_AFTER_SECONDS },
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      ),
    );
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
  app.addHook("preClose", async () => {
    closing = true;
    options.beforeDrain?.();
    if (app.server.listening) {
      const until = Date.now() + options.drainMs;
      while (Date.now() < until && (await openConnections(app)) > 0)
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    sweeper = setInterval(() => app.server.closeIdleConnections?.(), POLL_MS);
    sweeper.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
  });
}
