import pg from "pg";

/**
 * BIGINT columns (times in ms, order seq) come back as numbers rather than pg's default strings:
 * every value the gateway stores there is far below 2^53. Scoped to this pool, not pg's globals.
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8 && format !== "binary") return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PoolOptions {
  /** Connections per gateway process (GATEWAY_PG_POOL_MAX). */
  max?: number;
}

export const DEFAULT_POOL_MAX = 16;

/** A connection pool for a `postgres://` URL, with the gateway's type parsing and timeouts. */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? DEFAULT_POOL_MAX,
    types,
    // A server that does not answer fails the request instead of queueing it forever.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: "orderline-gateway",
  });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  return pool;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL with its password masked, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}
