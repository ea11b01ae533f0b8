import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { type Dialect, latestVersion } from "../store/migrations.js";
import type { Store } from "../store/store.js";
import type { Readiness } from "./readiness.js";

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
 * How long `/ready` waits for the store. A load balancer's probe must get an answer (503) in
 * a few seconds while the store hangs; the store's own timeouts may be longer.
 */
const READY_PROBE_MS = 2000;

/**
 * The schema version, or an error after READY_PROBE_MS. Probes that arrive while one is
 * waiting share it, so a hung store does not collect a query per probe.
 */
function boundedProbe(store: Store): () => Promise<number> {
  let inFlight: Promise<number> | undefined;
  return () => {
    inFlight ??= store.schemaVersion().finally(() => {
      inFlight = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer in ${READY_PROBE_MS} ms`)),
        READY_PROBE_MS,
      );
    });
    // The shared probe may still fail after this caller gave up: that is not unhandled.
    inFlight.catch(() => {});
    return Promise.race([inFlight, timeout]).finally(() => clearTimeout(timer));
  };
}

/**
 * `/health`: the process is up and serving HTTP (liveness: restart it when this fails).
 * `/ready`: the store answers and has every migration this build needs (readiness: send it
 * traffic only while this is 200). Neither needs credentials nor says anything secret.
 */
export async function healthRoutes(
  app: FastifyInstance,
  { store, readiness }: { store: Store; readiness?: Readiness },
) {
  const expected = latestVersion(store.kind as Dialect);
  const probe = boundedProbe(store);
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
      if (readiness?.leaving)
        return reply.code(503).send({
          status: "unavailable",
          ...base,
          detail: "This instance is shutting down; it still serves requests for a few seconds.",
        });
      try {
        const version = await probe();
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
