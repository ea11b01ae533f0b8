import type { FastifyRequest } from "fastify";
import { cookieOf } from "../http/cookies.js";
import { single } from "../http/headers.js";
import { ApiError } from "../problems/api-error.js";
import { SESSION_COOKIE } from "./session-cookie.js";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
const TENANT_API = /^\/v1(\/|$|\?)/;

const refused = (why: string) =>
  new ApiError(
    "cross_site_refused",
    `${why}: a change to the tenant API from a browser must come from the console's own origin.`,
  );

/**
 * The CSRF check of the tenant API (onRequest, before the body is parsed): a change (any method
 * but GET, HEAD, OPTIONS) that does not carry a bearer token must come from this origin or a
 * CORS-allowed one. The session cookie is SameSite=Strict already; this is the second lock, for
 * browsers or proxies that drop SameSite. A request with an Authorization header is a bearer
 * client's: browsers never add that header by themselves, and such a request is authenticated by
 * its token alone (authenticate.ts never falls back to the cookie). A write that carries the
 * cookie must name its Origin; a server-side client without Origin and without the cookie
 * (curl, the SDK) is not a browser and passes.
 */
export const crossSiteGuard = (allowedOrigins: readonly string[]) => {
  const allowed = new Set(allowedOrigins);
  return async (request: FastifyRequest): Promise<void> => {
    if (SAFE.has(request.method) || !TENANT_API.test(request.url)) return;
    if (single(request.headers, "authorization") !== undefined) return;
    const site = single(request.headers, "sec-fetch-site");
    const origin = single(request.headers, "origin");
    if (origin === undefined) {
      if (site !== undefined && site !== "same-origin" && site !== "none")
        throw refused(`Sec-Fetch-Site is '${site}'`);
      if (cookieOf(request.headers, SESSION_COOKIE) !== undefined)
        throw refused("The request carries the session cookie but no Origin header");
      return;
    }
    if (allowed.has(origin) || hostOf(origin) === request.host) return;
    throw refused(`Origin '${origin.slice(0, 100)}' is another site`);
  };
};

const hostOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
};
