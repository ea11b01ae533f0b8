import type Database from "better-sqlite3";
import type { Statement } from "../order-moves.js";
import type { StatementResult } from "../sql-runner.js";
import { SqlTenantStore, UPSERT_OVERRIDES, upsertParams } from "../sql-tenant-store.js";
import type { NonceClaim, OverridesRecord } from "../tenant-store.js";
import type { ReaderThreads } from "./reader-threads.js";
import { SqliteRunner } from "./runner.js";

/** The tenant store on the embedded connection (statements run synchronously). */
export class SqliteTenantStore extends SqlTenantStore {
  readonly #sql: SqliteRunner;

  constructor(
    db: Database.Database,
    /** Where nonces are claimed: batched off the event loop by the store (see nonce-writer.ts). */
    private readonly claimNonce: (claim: NonceClaim) => Promise<boolean>,
    /** Where listings, counts and searches read (absent: on this connection). */
    private readonly reads?: ReaderThreads,
  ) {
    super({ sqlite: true });
    this.#sql = new SqliteRunner(db);
  }

  override claimRequestNonce(key: string, expiresAt: number): Promise<boolean> {
    return this.claimNonce({ key, expiresAt });
  }

  protected rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.#sql.rows<R>(sql, params);
  }

  protected override listRows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.reads ? this.reads.rows<R>(sql, params) : this.#sql.rows<R>(sql, params);
  }

  protected changes(sql: string, params: unknown[]): Promise<number> {
    return this.#sql.changes(sql, params);
  }

  protected atomically(statements: Statement[]): Promise<StatementResult[]> {
    return this.#sql.atomically(statements);
  }

  async replaceOverrides(record: OverridesRecord): Promise<string | undefined> {
    const [previous] = await this.#sql.atomically([
      {
        sql: "SELECT overrides FROM tenant_overrides WHERE tenant_id = ? AND namespace = ? AND language = ?",
        params: [record.tenantId, record.namespace, record.language],
      },
      { sql: UPSERT_OVERRIDES, params: upsertParams(record) },
    ]);
    return (previous?.rows[0] as { overrides: string } | undefined)?.overrides;
  }
}
