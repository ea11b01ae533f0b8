import type { FastifyInstance } from "fastify";

/**
 * Graceful close for `app.close()` (SIGTERM): the listener stops accepting, requests in flight
 * run to completion and are answered, and keep-alive connections are closed as soon as they
 * fall idle instead of holding the process open until their keep-alive timeout. Responses sent
 * while closing carry `Connection: close`, so clients open their next request elsewhere.
 */
export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });
  app.addHook("preClose", async () => {
    closing = true;
    sweeper = setInterval(() => app.server.closeIdleConnections?.(), 50);
    sweeper.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
  });
}
