import type pg from "pg";
import { GroupCommit } from "../group-commit.js";
import type { Statement } from "../order-moves.js";
import { purgeStatement } from "../purge-statement.js";
import type { StatementResult } from "../sql-runner.js";
import { SqlTenantStore, UPSERT_OVERRIDES, upsertParams } from "../sql-tenant-store.js";
import type { ExpiringTable, NonceClaim, OverridesRecord } from "../tenant-store.js";
import { claimNonces } from "./nonce-batch.js";
import { PostgresRunner } from "./runner.js";

/** Nonce batches in flight at once: each holds a pooled connection for one short INSERT. */
const NONCE_BATCHES_IN_FLIGHT = 2;

/** The tenant store on a PostgreSQL pool. */
export class PostgresTenantStore extends SqlTenantStore {
  readonly #sql: PostgresRunner;
  /**
   * Signed writes other than creates (whose nonce goes in their order's statement) claim a
   * nonce before they act: one commit (one WAL flush) per request cost as much as an order
   * batch. Claims waiting together go in one statement.
   */
  readonly #nonces: GroupCommit<NonceClaim, boolean>;

  constructor(pool: pg.Pool, namedStatements = true) {
    super();
    this.#sql = new PostgresRunner(pool);
    this.#nonces = new GroupCommit(
      (claims) => claimNonces(pool, claims, namedStatements),
      512,
      NONCE_BATCHES_IN_FLIGHT,
    );
  }

  override claimRequestNonce(key: string, expiresAt: number): Promise<boolean> {
    return this.#nonces.submit({ key, expiresAt });
  }

  /** Resolves once every nonce claim made so far is settled (before the pool closes). */
  drain(): Promise<void> {
    return this.#nonces.drain();
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
