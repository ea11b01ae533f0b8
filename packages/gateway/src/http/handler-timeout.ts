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
 * create's CPU (issue 30, profiled). Its listener is kept for a real disconnect only, the socket
 * gone before the answer; the timeout's timer itself is untouched.
 */
export function abortSignalOnDisconnectOnly(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    const slot = onAbortSlotOf(request);
    const record = request as unknown as Record<symbol, AbortListener | null | undefined>;
    const onAbort = slot === undefined ? undefined : record[slot];
    if (typeof onAbort === "function") {
      const raw = request.raw;
      raw.removeListener("close", onAbort);
      raw.once("close", () => {
        if (raw.socket === null || raw.socket.destroyed) onAbort();
      });
    }
    done();
  });
}
