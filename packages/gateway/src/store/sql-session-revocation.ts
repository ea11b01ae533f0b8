import type { SqlRunner } from "./sql-runner.js";

/**
 * Revoked sessions (security/session-revocation.ts) in SQL both dialects understand: a session
 * id stays refused until its session would have expired anyway, when the purge takes it.
 */
export class SqlSessionRevocations {
  constructor(private readonly sql: Pick<SqlRunner, "rows" | "changes">) {}

  async revokeSession(sid: string, subject: string, at: number, expiresAt: number): Promise<void> {
    await this.sql.changes(
      "INSERT INTO revoked_sessions (sid, subject, revoked_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (sid) DO NOTHING",
      [sid, subject, at, expiresAt],
    );
  }

  async isSessionRevoked(sid: string): Promise<boolean> {
    return (
      (await this.sql.rows("SELECT 1 AS revoked FROM revoked_sessions WHERE sid = ?", [sid]))
        .length > 0
    );
  }

  async revokedSessions(subject: string, now: number): Promise<string[]> {
    const rows = await this.sql.rows<{ sid: string }>(
      "SELECT sid FROM revoked_sessions WHERE subject = ? AND expires_at > ?",
      [subject, now],
    );
    return rows.map((r) => r.sid);
  }
}
