/**
 * The console's server sessions (tenant-api/console-sessions.ts): one row per browser sign-in,
 * found by the SHA-256 of the cookie's secret. Times are Unix ms.
 */

export type SessionEndReason = "signed_out" | "ended_by_admin" | "user_disabled" | "password_set";

export interface ConsoleSessionRecord {
  /** Public id (listing, ending); never the secret. */
  id: string;
  /** SHA-256 (hex) of the cookie's secret. */
  secretHash: string;
  userId: string;
  tenantId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  endedAt: number | null;
  endedReason: SessionEndReason | null;
  userAgent: string;
  sourceAddress: string;
}

export interface ConsoleSessionStore {
  create(session: ConsoleSessionRecord): Promise<void>;
  findBySecretHash(secretHash: string): Promise<ConsoleSessionRecord | undefined>;
  /** Moves last_seen_at forward (never back). */
  touch(id: string, at: number): Promise<void>;
  /** The user's sessions that have not ended nor expired at `now`, newest first. */
  listActive(userId: string, now: number): Promise<ConsoleSessionRecord[]>;
  /** Ends one session of the user; false when it is not theirs or had ended already. */
  end(userId: string, id: string, reason: SessionEndReason, at: number): Promise<boolean>;
  /** Ends every open session of the user; answers how many. */
  endAll(userId: string, reason: SessionEndReason, at: number): Promise<number>;
}
