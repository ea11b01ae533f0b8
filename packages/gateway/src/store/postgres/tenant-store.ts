import type pg from "pg";
import {
  purgeStatement,
  SqlTenantStore,
  UPSERT_OVERRIDES,
  upsertParams,
} from "../sql-tenant-store.js";
import type { ExpiringTable, OverridesRecord } from "../tenant-store.js";

/** `?` placeholders to PostgreSQL's `$1, $2, …` (none of the shared statements quote a `?`). */
export const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** The tenant store on a PostgreSQL pool. */
export class PostgresTenantStore extends SqlTenantStore {
  readonly #sql = new Map<string, string>();

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  #text(sql: string): string {
    let text = this.#sql.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      this.#sql.set(sql, text);
    }
    return text;
  }

  protected async rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return (await this.pool.query(this.#text(sql), params)).rows as R[];
  }

  protected async changes(sql: string, params: unknown[]): Promise<number> {
    return (await this.pool.query(this.#text(sql), params)).rowCount ?? 0;
  }

  override async deleteExpired(
    table: ExpiringTable,
    before: number,
    limit: number,
  ): Promise<number> {
    return this.changes(purgeStatement(table, "FOR UPDATE SKIP LOCKED"), [before, limit]);
  }

  async replaceOverrides(record: OverridesRecord): Promise<string | undefined> {
    // The row lock makes a concurrent replacement wait, so each reports the version it replaced.
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ overrides: string }>(
        "SELECT overrides FROM tenant_overrides WHERE tenant_id = $1 AND namespace = $2 AND language = $3 FOR UPDATE",
        [record.tenantId, record.namespace, record.language],
      );
      await client.query(this.#text(UPSERT_OVERRIDES), upsertParams(record));
      await client.query("COMMIT");
      return rows[0]?.overrides;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
