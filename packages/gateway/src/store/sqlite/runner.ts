import type Database from "better-sqlite3";
import type { Statement } from "../order-moves.js";
import type { SqlRunner, StatementResult } from "../sql-runner.js";

/** Shared SQL on the embedded connection: statements run synchronously, prepared once. */
export class SqliteRunner implements SqlRunner {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, params: unknown[]): StatementResult {
    const statement = this.#prepare(sql);
    if (statement.reader) {
      const rows = statement.all(...params);
      return { rows, changes: rows.length };
    }
    return { rows: [], changes: statement.run(...params).changes };
  }

  async rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.#run(sql, params).rows as R[];
  }

  async changes(sql: string, params: unknown[]): Promise<number> {
    return this.#run(sql, params).changes;
  }

  async atomically(statements: Statement[]): Promise<StatementResult[]> {
    // IMMEDIATE: the write lock first, so another process's writer waits instead of failing.
    const run = this.db.transaction(() => statements.map((s) => this.#run(s.sql, s.params)));
    return run.immediate();
  }
}
