import type {
  ConsoleSessionRecord,
  ConsoleSessionStore,
  SessionEndReason,
} from "./console-session-store.js";
import type { SqlRunner } from "./sql-runner.js";

interface SessionRow {
  id: string;
  secret_hash: string;
  user_id: string;
  tenant_id: string;
  created_at: number | string;
  last_seen_at: number | string;
  expires_at: number | string;
  ended_at: number | string | null;
  ended_reason: SessionEndReason | null;
  user_agent: string;
  source_address: string;
}

// PostgreSQL answers BIGINT as a string.
const toRecord = (row: SessionRow): ConsoleSessionRecord => ({
  id: row.id,
  secretHash: row.secret_hash,
  userId: row.user_id,
  tenantId: row.tenant_id,
  createdAt: Number(row.created_at),
  lastSeenAt: Number(row.last_seen_at),
  expiresAt: Number(row.expires_at),
  endedAt: row.ended_at === null ? null : Number(row.ended_at),
  endedReason: row.ended_reason,
  userAgent: row.user_agent,
  sourceAddress: row.source_address,
});

/** The console's sessions in SQL both dialects understand, on either store's runner. */
export class SqlConsoleSessionStore implements ConsoleSessionStore {
  constructor(private readonly sql: SqlRunner) {}

  async create(s: ConsoleSessionRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO console_sessions (id, secret_hash, user_id, tenant_id, created_at, last_seen_at, expires_at, user_agent, source_address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        s.id,
        s.secretHash,
        s.userId,
        s.tenantId,
        s.createdAt,
        s.lastSeenAt,
        s.expiresAt,
        s.userAgent,
        s.sourceAddress,
      ],
    );
  }

  async findBySecretHash(secretHash: string): Promise<ConsoleSessionRecord | undefined> {
    const [row] = await this.sql.rows<SessionRow>(
      "SELECT * FROM console_sessions WHERE secret_hash = ?",
      [secretHash],
    );
    return row ? toRecord(row) : undefined;
  }

  async touch(id: string, at: number): Promise<void> {
    await this.sql.changes(
      "UPDATE console_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?",
      [at, id, at],
    );
  }

  async listActive(userId: string, now: number): Promise<ConsoleSessionRecord[]> {
    const rows = await this.sql.rows<SessionRow>(
      "SELECT * FROM console_sessions WHERE user_id = ? AND ended_at IS NULL AND expires_at > ? ORDER BY created_at DESC, id",
      [userId, now],
    );
    return rows.map(toRecord);
  }

  async end(userId: string, id: string, reason: SessionEndReason, at: number): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE console_sessions SET ended_at = ?, ended_reason = ? WHERE id = ? AND user_id = ? AND ended_at IS NULL",
      [at, reason, id, userId],
    );
    return changed === 1;
  }

  endAll(userId: string, reason: SessionEndReason, at: number): Promise<number> {
    return this.sql.changes(
      "UPDATE console_sessions SET ended_at = ?, ended_reason = ? WHERE user_id = ? AND ended_at IS NULL",
      [at, reason, userId],
    );
  }
}
