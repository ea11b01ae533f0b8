import type { FastifyContextConfig, FastifyRequest } from "fastify";

/** A route's `config` as Fastify keeps it, with the URL template it was registered under. */
export type RouteConfig = FastifyContextConfig & { url?: string };

/** Fastify's own slot for a request's route context (lib/symbols.js: kRouteContext). */
let contextSlot: symbol | null | undefined;

/**
 * The route's config of a request. `request.routeOptions` builds a dozen-member object on every
 * read (Fastify 5.12), and the hot path read it three times per signed create; the route
 * context Fastify keeps on the request holds the same config object. Falls back to
 * routeOptions should a later Fastify keep it elsewhere.
 */
export function routeConfigOf(request: FastifyRequest): RouteConfig {
  if (contextSlot === undefined)
    contextSlot =
      Object.getOwnPropertySymbols(request).find((s) => s.description === "fastify.context") ??
      null;
  const context =
    contextSlot === null
      ? undefined
      : (request as unknown as Record<symbol, { config?: RouteConfig } | undefined>)[contextSlot];
  return context?.config ?? (request.routeOptions.config as RouteConfig);
}
