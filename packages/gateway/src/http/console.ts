import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Scripts, styles and fonts only from the gateway itself; the API is on the same origin. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Serves the built tenant console (apps/console) at `/console/`, on the API's origin so it needs
 * no CORS; `/` redirects there. Hashed assets are cached for good, the HTML page revalidated so a
 * new build shows on the next load. Each file goes out as its brotli or gzip copy when the
 * client accepts one. Asset URLs are absolute (`/console/assets/…`), so `/console`
 * (the router ignores trailing slashes) works too. Hidden from the OpenAPI document.
 */
export async function consoleRoutes(app: FastifyInstance, { root }: { root: string }) {
  await app.register(fastifyStatic, {
    root,
    prefix: "/console/",
    index: "index.html",
    wildcard: true,
    schemaHide: true,
    cacheControl: false,
    // The console build writes .br and .gz beside each file (apps/console/scripts/compress-dist.mjs).
    preCompressed: true,
    setHeaders: (response, path) => {
      response.setHeader(
        "cache-control",
        /[/\\]assets[/\\]/.test(path) ? "public, max-age=31536000, immutable" : "no-cache",
      );
      response.setHeader("content-security-policy", CONTENT_SECURITY_POLICY);
      response.setHeader("x-content-type-options", "nosniff");
      // A shared cache keeps the brotli, gzip and plain copies apart.
      response.setHeader("vary", "accept-encoding");
    },
  });
  // The wildcard route does not match the bare prefix once trailing slashes are ignored.
  app.get("/console/", { schema: { hide: true } }, (_request, reply) =>
    reply.sendFile("index.html"),
  );
  app.get("/", { schema: { hide: true } }, (_request, reply) => reply.redirect("/console/"));
}
