import type { FastifyInstance, FastifyReply } from "fastify";
import { routeConfigOf } from "./route-config.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** This route's own deadline, ms, instead of the gateway's (a sign-in's password check). */
    deadlineMs?: number;
  }
}

/** A request not answered by its deadline (error-handler.ts answers it 503 store_unavailable). */
export class DeadlinePassed extends Error {
  constructor() {
    super("The request was not answered by its deadline.");
    this.name = "DeadlinePassed";
  }
}

/** How often the waiting requests are looked at: a tenth of the timeout, within 10–250 ms. */
const sweepEveryMs = (timeoutMs: number) => Math.max(10, Math.min(250, Math.floor(timeoutMs / 10)));

/**
 * From routing to the answer, each request has `timeoutMs` (a route may set its own
 * `deadlineMs`): a store that hangs must not hold a partner's request forever. One timer for all
 * requests, looking at them a few times per timeout, instead of Fastify's handlerTimeout, which
 * gave every request an AbortController, a timer of its own and listeners on its request and
 * socket: about 3 % of a signed create's CPU (measured side by side). Nothing here aborts the
 * work left running; the store's own bounds end it (PostgreSQL's statement timeout, SQLite's
 * busy timeout).
 */
export function installRequestDeadline(app: FastifyInstance, timeoutMs: number): void {
  if (timeoutMs <= 0) return;
  // The requests waiting for their answer (a few hundred at most) and their deadlines.
  const waiting = new Map<FastifyReply, number>();
  const sweep = () => {
    const now = Date.now();
    for (const [reply, deadline] of waiting) {
      if (deadline > now) continue;
      waiting.delete(reply);
      // Answered (an event stream took its reply over) or already answering: nothing to do.
      if (reply.sent) continue;
      if (reply.raw.headersSent) reply.raw.destroy(new DeadlinePassed());
      else reply.send(new DeadlinePassed());
    }
  };
  const timer = setInterval(sweep, sweepEveryMs(timeoutMs));
  timer.unref();
  app.addHook("onRequest", (request, reply, done) => {
    waiting.set(reply, Date.now() + (routeConfigOf(request).deadlineMs ?? timeoutMs));
    done();
  });
  app.addHook("onResponse", (_request, reply, done) => {
    waiting.delete(reply);
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
