import type { SqlRunner } from "./sql-runner.js";
import type {
  GuardedChange,
  PasswordLinkPurpose,
  PasswordLinkRecord,
  TeamStore,
} from "./team-store.js";
import type { UserRecord, UserRole } from "./tenant-store.js";

/** True when another enabled admin of the tenant than the user `?` exists. */
const ANOTHER_ADMIN =
  "EXISTS (SELECT 1 FROM users o WHERE o.tenant_id = ? AND o.role = 'admin' AND o.disabled_at IS NULL AND o.id <> ?)";

interface LinkRow {
  token_hash: string;
  user_id: string;
  purpose: PasswordLinkPurpose;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Team management in SQL both dialects understand, on either store's runner. */
export class SqlTeamStore implements TeamStore {
  constructor(private readonly sql: SqlRunner) {}

  async #guarded(changed: number, tenantId: string, userId: string): Promise<GuardedChange> {
    if (changed === 1) return "changed";
    const found = await this.sql.rows(
      "SELECT 1 AS found FROM users WHERE id = ? AND tenant_id = ?",
      [userId, tenantId],
    );
    return found.length === 0 ? "not_found" : "last_admin";
  }

  async createInvitedUser(u: UserRecord, link: PasswordLinkRecord): Promise<boolean> {
    const [user] = await this.sql.atomically([
      {
        sql: "INSERT INTO users (id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at) VALUES (?, ?, ?, '', 1, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING",
        params: [u.id, u.tenantId, u.email, u.role, u.language, u.createdAt, u.updatedAt],
      },
      {
        // Only with the user this transaction made: a taken email leaves nothing behind.
        sql: "INSERT INTO password_links (token_hash, user_id, purpose, created_at, expires_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ?)",
        params: [link.tokenHash, u.id, link.purpose, link.createdAt, link.expiresAt, u.id],
      },
    ]);
    return user?.changes === 1;
  }

  async setRole(
    tenantId: string,
    userId: string,
    role: UserRole,
    at: number,
  ): Promise<GuardedChange> {
    const changed = await this.sql.changes(
      `UPDATE users SET role = ?, updated_at = ? WHERE id = ? AND tenant_id = ? AND (? = 'admin' OR ${ANOTHER_ADMIN})`,
      [role, at, userId, tenantId, role, tenantId, userId],
    );
    return this.#guarded(changed, tenantId, userId);
  }

  async setDisabled(
    tenantId: string,
    userId: string,
    disabled: boolean,
    at: number,
  ): Promise<GuardedChange> {
    const changed = disabled
      ? await this.sql.changes(
          `UPDATE users SET disabled_at = COALESCE(disabled_at, ?), credential_version = credential_version + 1, updated_at = ? WHERE id = ? AND tenant_id = ? AND ${ANOTHER_ADMIN}`,
          [at, at, userId, tenantId, tenantId, userId],
        )
      : await this.sql.changes(
          "UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ? AND tenant_id = ?",
          [at, userId, tenantId],
        );
    return this.#guarded(changed, tenantId, userId);
  }

  async replacePasswordLink(link: PasswordLinkRecord): Promise<void> {
    await this.sql.atomically([
      {
        sql: "DELETE FROM password_links WHERE user_id = ? AND used_at IS NULL",
        params: [link.userId],
      },
      {
        sql: "INSERT INTO password_links (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
        params: [link.tokenHash, link.userId, link.purpose, link.createdAt, link.expiresAt],
      },
    ]);
  }

  async findPasswordLink(tokenHash: string): Promise<PasswordLinkRecord | undefined> {
    const [row] = await this.sql.rows<LinkRow>(
      "SELECT * FROM password_links WHERE token_hash = ?",
      [tokenHash],
    );
    return (
      row && {
        tokenHash: row.token_hash,
        userId: row.user_id,
        purpose: row.purpose,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
      }
    );
  }

  async usePasswordLink(
    tokenHash: string,
    passwordHash: string,
    at: number,
  ): Promise<string | undefined> {
    const [used, user] = await this.sql.atomically([
      {
        sql: "UPDATE password_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? AND EXISTS (SELECT 1 FROM users u WHERE u.id = password_links.user_id AND u.disabled_at IS NULL) RETURNING user_id",
        params: [at, tokenHash, at],
      },
      {
        sql: "UPDATE users SET password_hash = ?, credential_version = credential_version + 1, updated_at = ? WHERE id = (SELECT user_id FROM password_links WHERE token_hash = ? AND used_at = ?)",
        params: [passwordHash, at, tokenHash, at],
      },
    ]);
    const userId = (used?.rows[0] as { user_id: string } | undefined)?.user_id;
    return userId !== undefined && user?.changes === 1 ? userId : undefined;
  }

  async recordSignIn(userId: string, at: number): Promise<void> {
    await this.sql.changes("UPDATE users SET last_sign_in_at = ? WHERE id = ?", [at, userId]);
  }
}
