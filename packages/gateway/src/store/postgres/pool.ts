import pg from "pg";
import type { PgPooler } from "../../config/config.js";

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
  /** Server-side statement_timeout of every session (GATEWAY_PG_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
  /** Connecting, or waiting for a free pooled connection (GATEWAY_PG_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** What sits between the gateway and PostgreSQL (GATEWAY_PG_POOLER). */
  pooler?: Pooler;
  /** How long migrate waits for another session's migration lock (GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS). */
  migrationLockWaitSeconds?: number;
  /** Told every 10 s while migrate waits for that lock, who holds it. */
  onMigrationLockWait?: (message: string) => void;
}

/**
 * `none` (a direct connection) and `session` (PgBouncer in session mode: one server session per
 * client connection) keep everything a session holds. `transaction` (PgBouncer in transaction
 * mode) hands the server session to another client after every transaction: no named prepared
 * statements, no LISTEN, nothing that outlives a transaction.
 */
export type Pooler = PgPooler;

/** What a pooler in front of PostgreSQL leaves the gateway to use. */
export interface SessionFeatures {
  /** Named prepared statements (parsed once per server session, then reused). */
  namedStatements: boolean;
  /** LISTEN on a held connection (wake-ups); without it, the pollers find the work. */
  listen: boolean;
}

export function sessionFeatures(pooler: Pooler = "none"): SessionFeatures {
  const sessions = pooler !== "transaction";
  return { namedStatements: sessions, listen: sessions };
}

/**
 * A query config with its statement name only where named statements survive: behind a
 * transaction pooler a name parsed on one server session is unknown (26000) or already taken
 * (42P05) on the next one, so the statement goes unnamed (parsed on every call).
 */
export function statement(
  named: boolean,
  config: { name: string; text: string; values: unknown[] },
): pg.QueryConfig {
  return named ? config : { text: config.text, values: config.values };
}

export const DEFAULT_POOL_MAX = 16;
const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

/**
 * How much longer than statement_timeout the client waits for an answer. The server cancels a
 * slow statement itself (57014) and the connection stays usable; the client-side timeout only
 * fires when the server does not answer at all (hung, or a network that drops packets).
 */
const QUERY_TIMEOUT_MARGIN_MS = 1000;

/** A connection pool for a `postgres://` URL, with the gateway's type parsing and timeouts. */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? DEFAULT_POOL_MAX,
    types,
    // A server that does not answer fails the request instead of queueing it forever; the same
    // bound applies to waiting for a pooled connection when all are busy.
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: statementTimeoutMs || undefined,
    query_timeout: statementTimeoutMs ? statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS : undefined,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: "orderline-gateway",
  });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // Nor one dropped while checked out. The server's goodbye (57P01 when a session is
  // terminated) can arrive in the same read as the answer to the last query: the client is
  // handed to the next borrower and the error emitted before that borrower's code runs. So
  // every client listens from birth; its queries still fail, and the pool drops it on release
  // (a dead client is not queryable).
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/**
 * Runs `work` on a client of its own (a transaction, a session lock) and gives it back. It
 * notes an 'error' event during the checkout (the server ended the session, the socket reset),
 * and after one, or after `work` failed, releases the client with the error, so the pool
 * destroys it instead of lending out a connection that is dead, mid-transaction or still
 * running a statement the client stopped waiting for.
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  // The callback form: the pool calls it as it hands the client over, so the listener is on
  // before any more of the socket's data is read (a promise would resume a tick too late).
  const client = await new Promise<pg.PoolClient>((resolve, reject) =>
    pool.connect((error, client) => {
      if (error || client === undefined) return reject(error ?? new Error("no client"));
      client.on("error", onError);
      resolve(client);
    }),
  );
  try {
    const result = await work(client);
    client.off("error", onError);
    client.release(broken);
    return result;
  } catch (error) {
    client.off("error", onError);
    client.release(broken ?? (error instanceof Error ? error : new Error(String(error))));
    throw error;
  }
}

/**
 * Runs `work` in a transaction on a client of its own (withClient): COMMIT when `work` returns
 * and `keep` approves of what it returned, ROLLBACK otherwise.
 */
export function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  keep: (result: T) => boolean = () => true,
): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query("BEGIN");
    try {
      const result = await work(client);
      await client.query(keep(result) ? "COMMIT" : "ROLLBACK");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  });
}
