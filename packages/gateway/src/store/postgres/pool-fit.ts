import type pg from "pg";

/** What the server allows and what the gateway's pools may take of it. */
interface PoolFit {
  maxConnections: number;
  /** Connections only superusers (and roles with pg_use_reserved_connections) may use. */
  reserved: number;
  /** GATEWAY_PG_POOL_MAX × GATEWAY_INSTANCES. */
  wanted: number;
}

/**
 * The server's connection limit against what every instance's pool may open at once. A pool
 * larger than the server allows works until load fills it, then requests fail on connection
 * refusals; better said at start than found under load.
 */
export async function poolFit(pool: pg.Pool, poolMax: number, instances: number): Promise<PoolFit> {
  const { rows } = await pool.query<{ name: string; setting: string }>(
    "SELECT name, setting FROM pg_settings WHERE name IN ('max_connections', 'superuser_reserved_connections', 'reserved_connections')",
  );
  const setting = (name: string) => Number(rows.find((r) => r.name === name)?.setting ?? 0);
  return {
    maxConnections: setting("max_connections"),
    reserved: setting("superuser_reserved_connections") + setting("reserved_connections"),
    wanted: poolMax * instances,
  };
}

/** The start-up warning when the pools cannot fit, else undefined. */
export function poolFitWarning(
  fit: PoolFit,
  poolMax: number,
  instances: number,
): string | undefined {
  const available = fit.maxConnections - fit.reserved;
  if (fit.wanted <= available) return undefined;
  const who =
    instances === 1
      ? `GATEWAY_PG_POOL_MAX=${poolMax}`
      : `GATEWAY_PG_POOL_MAX=${poolMax} × GATEWAY_INSTANCES=${instances} = ${fit.wanted}`;
  return `${who} connections cannot fit the PostgreSQL server's max_connections=${fit.maxConnections} minus ${fit.reserved} reserved (${available}); under load requests will fail for want of a connection. Lower the pool, or raise max_connections.`;
}
