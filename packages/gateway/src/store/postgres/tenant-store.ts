import type pg from "pg";
import type { Statement } from "../order-moves.js";
import type { StatementResult } from "../sql-runner.js";
import {
  purgeStatement,
  SqlTenantStore,
  UPSERT_OVERRIDES,
  upsertParams,
} from "../sql-tenant-store.js";
import type { ExpiringTable, OverridesRecord } from "../tenant-store.js";
import { PostgresRunner } from "./runner.js";

/** The tenant store on a PostgreSQL pool. */
export class PostgresTenantStore extends SqlTenantStore {
  readonly #sql: PostgresRunner;

  constructor(pool: pg.Pool) {
    super();
    this.#sql = new PostgresRunner(pool);
  }

  protected rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.#sql.rows<R>(sql, params);
  }

  protected changes(sql: string, params: unknown[]): Promise<number> {
    return this.#sql.changes(sql, params);
  }

  protected atomically(statements: Statement[]): Promise<StatementResult[]> {
    return this.#sql.atomically(statements);
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
    const [previous] = await this.#sql.atomically([
      {
        sql: "SELECT overrides FROM tenant_overrides WHERE tenant_id = ? AND namespace = ? AND language = ? FOR UPDATE",
        params: [record.tenantId, record.namespace, record.language],
      },
      { sql: UPSERT_OVERRIDES, params: upsertParams(record) },
    ]);
    return (previous?.rows[0] as { overrides: string } | undefined)?.overrides;
  }
}
