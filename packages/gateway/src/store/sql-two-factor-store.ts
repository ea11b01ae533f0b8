import type { SqlRunner } from "./sql-runner.js";
import type {
  ChallengePurpose,
  ChallengeRecord,
  TwoFactorPolicy,
  TwoFactorRecord,
  TwoFactorStore,
} from "./two-factor-store.js";

interface FactorRow {
  user_id: string;
  tenant_id: string;
  secret_sealed: string;
  created_at: number | string;
  confirmed_at: number | string | null;
  last_step: number | string;
}

interface ChallengeRow {
  secret_hash: string;
  user_id: string;
  purpose: ChallengePurpose;
  created_at: number | string;
  expires_at: number | string;
  used_at: number | string | null;
}

// PostgreSQL answers BIGINT as a string.
const toFactor = (row: FactorRow): TwoFactorRecord => ({
  userId: row.user_id,
  tenantId: row.tenant_id,
  secretSealed: row.secret_sealed,
  createdAt: Number(row.created_at),
  confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
  lastStep: Number(row.last_step),
});

const toChallenge = (row: ChallengeRow): ChallengeRecord => ({
  secretHash: row.secret_hash,
  userId: row.user_id,
  purpose: row.purpose,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  usedAt: row.used_at === null ? null : Number(row.used_at),
});

/** The second factor in SQL both dialects understand, on either store's runner. */
export class SqlTwoFactorStore implements TwoFactorStore {
  constructor(private readonly sql: SqlRunner) {}

  async find(userId: string): Promise<TwoFactorRecord | undefined> {
    const [row] = await this.sql.rows<FactorRow>(
      "SELECT * FROM user_two_factor WHERE user_id = ?",
      [userId],
    );
    return row ? toFactor(row) : undefined;
  }

  async startEnrolment(r: TwoFactorRecord): Promise<boolean> {
    // A confirmed factor is never replaced here: turning it off takes a code first.
    const changed = await this.sql.changes(
      "INSERT INTO user_two_factor (user_id, tenant_id, secret_sealed, created_at, confirmed_at, last_step) VALUES (?, ?, ?, ?, NULL, 0) ON CONFLICT (user_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, created_at = excluded.created_at WHERE user_two_factor.confirmed_at IS NULL",
      [r.userId, r.tenantId, r.secretSealed, r.createdAt],
    );
    return changed === 1;
  }

  async confirm(
    userId: string,
    at: number,
    step: number,
    codeHashes: readonly string[],
  ): Promise<boolean> {
    const [confirmed] = await this.sql.atomically([
      {
        sql: "UPDATE user_two_factor SET confirmed_at = ?, last_step = ? WHERE user_id = ? AND confirmed_at IS NULL",
        params: [at, step, userId],
      },
      { sql: "DELETE FROM user_recovery_codes WHERE user_id = ?", params: [userId] },
      // Inserted only when the factor is now confirmed (by this transaction).
      ...codeHashes.map((hash) => ({
        sql: "INSERT INTO user_recovery_codes (user_id, code_hash) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM user_two_factor WHERE user_id = ? AND confirmed_at = ?)",
        params: [userId, hash, userId, at],
      })),
    ]);
    return confirmed?.changes === 1;
  }

  async useStep(userId: string, step: number): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE user_two_factor SET last_step = ? WHERE user_id = ? AND confirmed_at IS NOT NULL AND last_step < ?",
      [step, userId, step],
    );
    return changed === 1;
  }

  async remove(userId: string): Promise<boolean> {
    const [removed] = await this.sql.atomically([
      { sql: "DELETE FROM user_two_factor WHERE user_id = ?", params: [userId] },
      { sql: "DELETE FROM user_recovery_codes WHERE user_id = ?", params: [userId] },
    ]);
    return removed?.changes === 1;
  }

  async unusedRecoveryHashes(userId: string): Promise<string[]> {
    const rows = await this.sql.rows<{ code_hash: string }>(
      "SELECT code_hash FROM user_recovery_codes WHERE user_id = ? AND used_at IS NULL",
      [userId],
    );
    return rows.map((row) => row.code_hash);
  }

  async useRecoveryCode(userId: string, codeHash: string, at: number): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE user_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
      [at, userId, codeHash],
    );
    return changed === 1;
  }

  async createChallenge(c: ChallengeRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO second_factor_challenges (secret_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      [c.secretHash, c.userId, c.purpose, c.createdAt, c.expiresAt],
    );
  }

  async findChallenge(secretHash: string): Promise<ChallengeRecord | undefined> {
    const [row] = await this.sql.rows<ChallengeRow>(
      "SELECT * FROM second_factor_challenges WHERE secret_hash = ?",
      [secretHash],
    );
    return row ? toChallenge(row) : undefined;
  }

  async useChallenge(secretHash: string, at: number): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE second_factor_challenges SET used_at = ? WHERE secret_hash = ? AND used_at IS NULL AND expires_at > ?",
      [at, secretHash, at],
    );
    return changed === 1;
  }

  async setPolicy(tenantId: string, policy: TwoFactorPolicy): Promise<void> {
    await this.sql.changes("UPDATE tenants SET two_factor_required = ? WHERE id = ?", [
      policy,
      tenantId,
    ]);
  }
}
