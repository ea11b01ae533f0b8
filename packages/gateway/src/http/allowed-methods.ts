import type { FastifyInstance } from "fastify";

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A route URL as Fastify declares it (`/a/:id`, `/static/*`) as a regular expression. */
function patternOf(url: string): RegExp {
  const source = url
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.startsWith(":")) return "[^/]+";
      return escapeRegExp(segment);
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

/**
 * Remembers every route as it is registered, so a request that matched no route can be told
 * apart: a path that exists under other methods (405 with Allow) from one that does not (404).
 * Must be installed before the routes are registered.
 */
export function trackAllowedMethods(app: FastifyInstance): (path: string) => string[] {
  const known = new Map<string, KnownPath>();
  // Routes on every path (CORS preflight's `OPTIONS *`) say nothing about which paths exist.
  const everywhere = new Set<string>();
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (route.url === "*" || route.url === "/*") {
      for (const method of methods) everywhere.add(method);
      return;
    }
    const url = route.url.length > 1 ? route.url.replace(/\/$/, "") : route.url;
    let entry = known.get(url);
    if (entry === undefined) {
      entry = { pattern: patternOf(url), methods: new Set() };
      known.set(url, entry);
    }
    for (const method of methods) entry.methods.add(method);
    if (entry.methods.has("GET")) entry.methods.add("HEAD");
  });
  return (path) => {
    // Routes ignore a trailing slash, so the lookup does too.
    const bare = path.length > 1 ? path.replace(/\/$/, "") : path;
    const methods = new Set<string>();
    for (const entry of known.values()) {
      if (entry.pattern.test(bare)) for (const method of entry.methods) methods.add(method);
    }
    if (methods.size > 0) for (const method of everywhere) methods.add(method);
    return [...methods].sort();
  };
}
