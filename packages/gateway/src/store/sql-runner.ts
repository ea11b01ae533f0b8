/** One SQL statement with its `?` parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** What one statement of a batch gave back: its rows (RETURNING or SELECT) and changed rows. */
export interface StatementResult {
  rows: unknown[];
  changes: number;
}

/**
 * How a store's shared SQL runs on one dialect: statements in `?` placeholders, one at a time or
 * several in one transaction. Lets SQL written once serve both stores.
 */
export interface SqlRunner {
  rows<R>(sql: string, params: unknown[]): Promise<R[]>;
  changes(sql: string, params: unknown[]): Promise<number>;
  /** Runs the statements in order in one transaction: all of them commit, or none. */
  atomically(statements: Statement[]): Promise<StatementResult[]>;
}
