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

/**
 * Taken first in every transaction that may remove an admin: a no-op write to the tenant's row.
 * Under PostgreSQL's READ COMMITTED two "another admin exists" checks could each see the other
 * admin still there and both commit (write skew); the row lock makes the second wait, and its
 * next statement then sees the first one's change. SQLite's single writer serialises anyway.
 * A write both dialects take rather than `SELECT … FOR UPDATE`, which SQLite does not parse.
 */
const LOCK_TENANT = "UPDATE tenants SET name = name WHERE id = ?";

/** A user's unused links stop working (disabled, or replaced by an admin's new link). */
const REVOKE_LINKS = "DELETE FROM password_links WHERE user_id = ? AND used_at IS NULL";

interface LinkRow {
  token_hash: string;
  user_id: string;
  purpose: PasswordLinkPurpose;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Another account has signed up with the email of the link's user. */
const EMAIL_SIGNED_UP_ELSEWHERE =
  "EXISTS (SELECT 1 FROM users u JOIN users o ON o.email = u.email AND o.id <> u.id AND o.password_hash <> '' WHERE u.id = password_links.user_id)";

const insertLink = (link: PasswordLinkRecord) => ({
  sql: "INSERT INTO password_links (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  params: [link.tokenHash, link.userId, link.purpose, link.createdAt, link.expiresAt],
});

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
        sql: "INSERT INTO users (id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at, display_name) VALUES (?, ?, ?, '', 1, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        params: [
          u.id,
          u.tenantId,
          u.email,
          u.role,
          u.language,
          u.createdAt,
          u.updatedAt,
          u.displayName ?? null,
        ],
      },
      {
        // Only with the user this transaction made: a taken email leaves nothing behind.
        sql: "INSERT INTO password_links (token_hash, user_id, purpose, created_at, expires_at) SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ?)",
        params: [link.tokenHash, u.id, link.purpose, link.createdAt, link.expiresAt, u.id],
      },
    ]);
    return user?.changes === 1;
  }

  /** The tenant locked first, then `change`; the change's row count says what happened. */
  async #withTenantLocked(
    tenantId: string,
    userId: string,
    change: { sql: string; params: unknown[] },
    after: { sql: string; params: unknown[] }[] = [],
  ): Promise<GuardedChange> {
    const [, changed] = await this.sql.atomically([
      { sql: LOCK_TENANT, params: [tenantId] },
      change,
      ...after,
    ]);
    return this.#guarded(changed?.changes ?? 0, tenantId, userId);
  }

  setRole(tenantId: string, userId: string, role: UserRole, at: number): Promise<GuardedChange> {
    return this.#withTenantLocked(tenantId, userId, {
      sql: `UPDATE users SET role = ?, updated_at = ? WHERE id = ? AND tenant_id = ? AND (? = 'admin' OR ${ANOTHER_ADMIN})`,
      params: [role, at, userId, tenantId, role, tenantId, userId],
    });
  }

  setDisabled(
    tenantId: string,
    userId: string,
    disabled: boolean,
    at: number,
  ): Promise<GuardedChange> {
    // Enabling also revokes: a link issued while the user was disabled is as old as the pause.
    if (!disabled)
      return this.#withTenantLocked(
        tenantId,
        userId,
        {
          sql: "UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ? AND tenant_id = ?",
          params: [at, userId, tenantId],
        },
        [
          {
            sql: `${REVOKE_LINKS} AND EXISTS (SELECT 1 FROM users WHERE id = ? AND tenant_id = ?)`,
            params: [userId, userId, tenantId],
          },
        ],
      );
    return this.#withTenantLocked(
      tenantId,
      userId,
      {
        sql: `UPDATE users SET disabled_at = COALESCE(disabled_at, ?), credential_version = credential_version + 1, updated_at = ? WHERE id = ? AND tenant_id = ? AND ${ANOTHER_ADMIN}`,
        params: [at, at, userId, tenantId, tenantId, userId],
      },
      // Only links of a user this transaction disabled (a refused disable keeps them).
      [
        {
          sql: `${REVOKE_LINKS} AND EXISTS (SELECT 1 FROM users WHERE id = ? AND tenant_id = ? AND disabled_at IS NOT NULL)`,
          params: [userId, userId, tenantId],
        },
      ],
    );
  }

  async replacePasswordLink(link: PasswordLinkRecord): Promise<void> {
    await this.sql.atomically([{ sql: REVOKE_LINKS, params: [link.userId] }, insertLink(link)]);
  }

  async addPasswordLink(link: PasswordLinkRecord): Promise<void> {
    await this.sql.atomically([insertLink(link)]);
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
        // Not while another account has signed up with the address (an invite accepted in
        // another tenant first): the link stays unspent, and the caller says why.
        sql: `UPDATE password_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? AND EXISTS (SELECT 1 FROM users u WHERE u.id = password_links.user_id AND u.disabled_at IS NULL) AND NOT ${EMAIL_SIGNED_UP_ELSEWHERE} RETURNING user_id`,
        params: [at, tokenHash, at],
      },
      {
        sql: "UPDATE users SET password_hash = ?, credential_version = credential_version + 1, updated_at = ? WHERE id = (SELECT user_id FROM password_links WHERE token_hash = ? AND used_at = ?)",
        params: [passwordHash, at, tokenHash, at],
      },
      {
        // The password is chosen: whatever other link was out (an admin's, a self-service one)
        // must not change it again.
        sql: "DELETE FROM password_links WHERE used_at IS NULL AND user_id = (SELECT user_id FROM password_links WHERE token_hash = ? AND used_at = ?)",
        params: [tokenHash, at],
      },
    ]);
    const userId = (used?.rows[0] as { user_id: string } | undefined)?.user_id;
    return userId !== undefined && user?.changes === 1 ? userId : undefined;
  }

  async setDisplayName(
    tenantId: string,
    userId: string,
    name: string | null,
    at: number,
  ): Promise<boolean> {
    const changed = await this.sql.changes(
      "UPDATE users SET display_name = ?, updated_at = ? WHERE id = ? AND tenant_id = ?",
      [name, at, userId, tenantId],
    );
    return changed === 1;
  }

  async recordSignIn(userId: string, at: number): Promise<void> {
    await this.sql.changes("UPDATE users SET last_sign_in_at = ? WHERE id = ?", [at, userId]);
  }
}
