import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type Dialect, latestVersion } from "../store/migrations.js";
import type { Store } from "../store/store.js";

const STATUS = {
  type: "object",
  required: ["status"],
  properties: {
    status: { type: "string", enum: ["ok", "unavailable"] },
    store: { type: "string", description: "sqlite or postgres" },
    schema_version: { type: "integer" },
    expected_schema_version: { type: "integer" },
    detail: { type: "string" },
  },
} as const;

/** A request logger whose info lines (incoming request, request completed) are debug lines. */
const probeLogger = (
  logger: FastifyBaseLogger,
  ...[bindings, options]: Parameters<FastifyBaseLogger["child"]>
): FastifyBaseLogger => {
  const child = logger.child(bindings, options);
  child.info = child.debug.bind(child);
  return child;
};

/**
 * `/health`: the process is up and serving HTTP (liveness: restart it when this fails).
 * `/ready`: the store answers and has every migration this build needs (readiness: send it
 * traffic only while this is 200). Neither needs credentials nor says anything secret.
 */
export async function healthRoutes(app: FastifyInstance, { store }: { store: Store }) {
  const expected = latestVersion(store.kind as Dialect);
  app.get(
    "/health",
    {
      // Probes every few seconds: their request lines only at debug.
      childLoggerFactory: probeLogger,
      schema: {
        tags: ["Operations"],
        summary: "Liveness: the process serves HTTP",
        security: [],
        response: { 200: STATUS },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/ready",
    {
      childLoggerFactory: probeLogger,
      schema: {
        tags: ["Operations"],
        summary: "Readiness: the store is reachable and fully migrated",
        security: [],
        response: { 200: STATUS, 503: STATUS },
      },
    },
    async (request, reply) => {
      const base = { store: store.kind, expected_schema_version: expected };
      try {
        const version = await store.schemaVersion();
        if (version >= expected) return { status: "ok" as const, ...base, schema_version: version };
        return reply.code(503).send({
          status: "unavailable",
          ...base,
          schema_version: version,
          detail: "Migrations are pending: run `orderline-gateway migrate`.",
        });
      } catch (error) {
        request.log.warn({ err: (error as Error).message }, "readiness: store unreachable");
        return reply
          .code(503)
          .send({ status: "unavailable", ...base, detail: "The store does not answer." });
      }
    },
  );
}
