import type { SqlRunner } from "./sql-runner.js";
import type { LoginFailures } from "./tenant-store.js";

/** A failed login on an existing count: +1, or 1 again when the last one is older than `?`. */
const COUNT_FAILURE =
  " ON CONFLICT (account_key) DO UPDATE SET failures = CASE WHEN login_failures.last_failed_at < ? THEN 1 ELSE login_failures.failures + 1 END, last_failed_at = excluded.last_failed_at";

/**
 * The sign-in throttle's counts (security/login-throttle.ts) in SQL both dialects understand:
 * failures per account-and-address key, counted up in one statement, reset by a success.
 */
export class SqlLoginFailures {
  constructor(private readonly sql: Pick<SqlRunner, "rows" | "changes">) {}

  async #one<R>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await this.sql.rows<R>(sql, params))[0];
  }

  async loginFailures(accountKey: string): Promise<LoginFailures | undefined> {
    const row = await this.#one<{ failures: number; last_failed_at: number }>(
      "SELECT failures, last_failed_at FROM login_failures WHERE account_key = ?",
      [accountKey],
    );
    return row && { failures: row.failures, lastFailedAt: row.last_failed_at };
  }

  async loginFailuresOf(keys: readonly string[]): Promise<Map<string, LoginFailures>> {
    const found = new Map<string, LoginFailures>();
    if (keys.length === 0) return found;
    const rows = await this.sql.rows<{
      account_key: string;
      failures: number;
      last_failed_at: number;
    }>(
      `SELECT account_key, failures, last_failed_at FROM login_failures WHERE account_key IN (${keys.map(() => "?").join(", ")})`,
      [...keys],
    );
    for (const row of rows)
      found.set(row.account_key, { failures: row.failures, lastFailedAt: row.last_failed_at });
    return found;
  }

  async recordLoginFailure(
    accountKey: string,
    at: number,
    resetBefore: number,
  ): Promise<LoginFailures> {
    const row = await this.#one<{ failures: number; last_failed_at: number }>(
      `INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES (?, 1, ?)${COUNT_FAILURE} RETURNING failures, last_failed_at`,
      [accountKey, at, resetBefore],
    );
    if (!row) throw new Error("recording a failed login returned no row");
    return { failures: row.failures, lastFailedAt: row.last_failed_at };
  }

  async recordLoginFailures(
    keys: readonly string[],
    at: number,
    resetBefore: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    // One statement, so one commit (one fsync on SQLite) for all the counts of a failure.
    await this.sql.changes(
      `INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES ${keys.map(() => "(?, 1, ?)").join(", ")}${COUNT_FAILURE}`,
      [...keys.flatMap((key) => [key, at]), resetBefore],
    );
  }

  async clearLoginFailures(accountKey: string): Promise<void> {
    await this.sql.changes("DELETE FROM login_failures WHERE account_key = ?", [accountKey]);
  }

  async recordLoginSuccess(key: string, at: number): Promise<void> {
    await this.sql.changes(
      "INSERT INTO login_failures (account_key, failures, last_failed_at) VALUES (?, 0, ?) ON CONFLICT (account_key) DO UPDATE SET failures = 0, last_failed_at = excluded.last_failed_at",
      [key, at],
    );
  }
}
