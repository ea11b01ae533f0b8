import type Database from "better-sqlite3";
import { SqlTenantStore, UPSERT_OVERRIDES, upsertParams } from "../sql-tenant-store.js";
import type { OverridesRecord } from "../tenant-store.js";

/** The tenant store on the embedded SQLite connection (statements run synchronously). */
export class SqliteTenantStore extends SqlTenantStore {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    super();
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  protected async rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.#prepare(sql).all(...params) as R[];
  }

  protected async changes(sql: string, params: unknown[]): Promise<number> {
    return this.#prepare(sql).run(...params).changes;
  }

  async replaceOverrides(record: OverridesRecord): Promise<string | undefined> {
    const replace = this.db.transaction(() => {
      const previous = this.#prepare(
        "SELECT overrides FROM tenant_overrides WHERE tenant_id = ? AND namespace = ? AND language = ?",
      ).get(record.tenantId, record.namespace, record.language) as
        | { overrides: string }
        | undefined;
      this.#prepare(UPSERT_OVERRIDES).run(...upsertParams(record));
      return previous?.overrides;
    });
    return replace.immediate();
  }
}
