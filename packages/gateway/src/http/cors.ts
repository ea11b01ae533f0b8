import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/** Only the tenant API is meant for browsers on other origins; partners call from servers. */
const BROWSER_API = /^\/v1(\/|$|\?)/;

/**
 * Cross-origin access to the tenant API (`/v1/…`) for the listed origins only (exact
 * `scheme://host[:port]` matches). With no origin listed nothing is registered: same-origin
 * front ends, like the console the gateway serves, need none. Preflight requests (`OPTIONS`)
 * are answered for allowed origins; a refused origin gets no CORS headers, so the browser
 * blocks the call. Tokens travel in the Authorization header, never in cookies: no
 * credentials mode.
 */
export async function installCors(app: FastifyInstance, origins: readonly string[]) {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    hook: "onRequest",
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const permitted =
        BROWSER_API.test(request.url) && origin !== undefined && allowed.has(origin);
      callback(null, {
        origin: permitted ? origin : false,
        methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
        allowedHeaders: [
          "Authorization",
          "Content-Type",
          "If-None-Match",
          "Idempotency-Key",
          "Last-Event-ID",
        ],
        exposedHeaders: ["ETag", "Content-Language", "Retry-After", "X-Request-Id"],
        maxAge: 600,
        // A refused preflight still gets an answer, only without the CORS headers.
        strictPreflight: false,
      });
    },
  });
}
