import type pg from "pg";
import type { Statement } from "../order-moves.js";
import type { SqlRunner, StatementResult } from "../sql-runner.js";
import { inTransaction } from "./pool.js";

/** `?` placeholders to PostgreSQL's `$1, $2, …` (none of the shared statements quote a `?`). */
export const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** Shared SQL on a PostgreSQL pool: `?` placeholders numbered once per statement text. */
export class PostgresRunner implements SqlRunner {
  readonly #texts = new Map<string, string>();

  constructor(private readonly pool: pg.Pool) {}

  #text(sql: string): string {
    let text = this.#texts.get(sql);
    if (text === undefined) {
      text = numbered(sql);
      this.#texts.set(sql, text);
    }
    return text;
  }

  async rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return (await this.pool.query(this.#text(sql), params)).rows as R[];
  }

  async changes(sql: string, params: unknown[]): Promise<number> {
    return (await this.pool.query(this.#text(sql), params)).rowCount ?? 0;
  }

  atomically(statements: Statement[]): Promise<StatementResult[]> {
    return inTransaction(this.pool, async (client) => {
      const results: StatementResult[] = [];
      for (const s of statements) {
        const result = await client.query(this.#text(s.sql), s.params);
        results.push({ rows: result.rows, changes: result.rowCount ?? 0 });
      }
      return results;
    });
  }
}
