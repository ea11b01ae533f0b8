import type { FastifyInstance, FastifyRequest } from "fastify";

type AbortListener = () => void;

/** Fastify's own slot for the listener that aborts request.signal (lib/symbols.js). */
let onAbortSlot: symbol | undefined;
function onAbortSlotOf(request: FastifyRequest): symbol | undefined {
  onAbortSlot ??= Object.getOwnPropertySymbols(request).find(
    (s) => s.description === "fastify.request.onAbort",
  );
  return onAbortSlot;
}

/**
 * With a handler timeout, Fastify (5.12) aborts request.signal on the request stream's `close`,
 * and a request's stream closes as soon as its body has been read: every create made an
 * AbortError (a DOMException with its stack) for a client still waiting, about 6% of a signed
 * create's CPU (profiled). Its listener now waits for the socket's `close` instead: a
 * real disconnect before the answer still aborts the signal; the timeout's timer is untouched.
 */
export function abortSignalOnDisconnectOnly(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const slot = onAbortSlotOf(request);
    const record = request as unknown as Record<symbol, AbortListener | null | undefined>;
    const onAbort = slot === undefined ? undefined : record[slot];
    const socket = request.raw.socket;
    if (typeof onAbort === "function" && socket) {
      request.raw.removeListener("close", onAbort);
      // The socket outlives the request on a kept-alive connection: listen until the answer ends.
      socket.once("close", onAbort);
      reply.raw.once("close", () => socket.removeListener("close", onAbort));
    }
    done();
  });
}
