/**
 * Which store errors are an outage (the store cannot be reached, refused the connection, hung
 * or is restarting: retry later, perhaps on another instance) rather than a defect. The error
 * handler answers an outage 503 `store_unavailable` with Retry-After; anything else stays 500.
 */

/** Thrown where the gateway itself gives up on the store (a request deadline, say). */
export class StoreOutageError extends Error {
  override name = "StoreOutageError";
}

/** Socket-level failures: the server is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs: 53300 too_many_connections (and the rest of class 53, out of
 * resources); 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, recovering); 57014 query_canceled,
 * which is what statement_timeout raises; 25006 read_only_sql_transaction, a write that landed
 * on a standby during a failover. Class 08 (connection exceptions) is matched by prefix.
 * 42P05 duplicate_prepared_statement and 26000 invalid_sql_statement_name: a named statement
 * meeting a server session it was not prepared on, what a transaction pooler in front does
 * when GATEWAY_PG_POOLER does not say so; the setting fixes it, not the request.
 */
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03", "57014", "25006", "42P05", "26000"]);
const POSTGRES_CLASSES = ["08", "53"];

/**
 * What node-postgres says when the connection died under it or could not be had in time (its
 * errors for these carry no code).
 */
const POSTGRES_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|is not queryable|Cannot use a pool after calling end/i;

/**
 * SQLite (better-sqlite3 codes, extended ones included): BUSY and LOCKED once busy_timeout has
 * passed, IOERR (the disk or file system failing), FULL (no space left), PROTOCOL (a lock race
 * on WAL files). Each clears without a change to the gateway; CORRUPT, say, does not.
 */
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|PROTOCOL)(_|$)/;

function isOutageCode(code: unknown): boolean {
  if (typeof code !== "string") return false;
  return (
    NETWORK_CODES.has(code) ||
    POSTGRES_STATES.has(code) ||
    (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_CLASSES.includes(code.slice(0, 2))) ||
    SQLITE_CODES.test(code)
  );
}

/** True when `error` (or an error it wraps, through `cause` or AggregateError) is an outage. */
export function isStoreOutage(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  if (error instanceof StoreOutageError) return true;
  if (isOutageCode((error as { code?: unknown }).code)) return true;
  if (POSTGRES_MESSAGES.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isStoreOutage(e, depth + 1)))
    return true;
  return isStoreOutage(error.cause, depth + 1);
}
