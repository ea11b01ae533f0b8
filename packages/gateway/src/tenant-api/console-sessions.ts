import { createHash } from "node:crypto";
import type { UserContext } from "../domain/users/user-context.js";
import type { Clock } from "../lib/clock.js";
import { newId, randomToken } from "../lib/random.js";
import { ApiError } from "../problems/api-error.js";
import type {
  ConsoleSessionRecord,
  ConsoleSessionStore,
  SessionEndReason,
} from "../store/console-session-store.js";
import type { TenantStore, UserRecord } from "../store/tenant-store.js";

/** A session nobody used for this long ends (the console's tabs call the API while open). */
const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** However active, a session ends this long after its sign-in (as the token chains did). */
const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session: reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

const USER_AGENT_MAX = 300;

const ENDED_BECAUSE: Record<SessionEndReason, string> = {
  signed_out: "This session was signed out",
  ended_by_admin: "A tenant admin ended this session",
  user_disabled: "This account was disabled, which ended its sessions",
  password_set: "The password was set anew, which ended the account's sessions",
};

const secretHash = (secret: string): string => createHash("sha256").update(secret).digest("hex");

const sessionEnded = (why: string) =>
  new ApiError("session_ended", `${why}; sign in again with POST /v1/auth/session.`);

/** Who started a session: shown to admins beside it. */
interface SessionOrigin {
  userAgent: string;
  sourceAddress: string;
}

/**
 * The console's server sessions: a random 256-bit secret in an HttpOnly cookie, its SHA-256 in
 * the store. Each request reads the row (lookup by the hash, so the secret is never compared
 * byte by byte), so ending a session takes effect on every instance at the next request.
 */
export class ConsoleSessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly tenants: TenantStore,
    private readonly now: Clock,
  ) {}

  /** A new session for a user whose password (and second factor) were checked. */
  async start(
    user: UserRecord,
    origin: SessionOrigin,
  ): Promise<{ secret: string; session: ConsoleSessionRecord }> {
    const secret = randomToken(32);
    const at = this.now();
    const session: ConsoleSessionRecord = {
      id: newId(at),
      secretHash: secretHash(secret),
      userId: user.id,
      tenantId: user.tenantId,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + SESSION_MAX_MS,
      endedAt: null,
      endedReason: null,
      userAgent: origin.userAgent.slice(0, USER_AGENT_MAX),
      sourceAddress: origin.sourceAddress,
    };
    await this.store.create(session);
    return { secret, session };
  }

  /** The open session `secret` names, or a 401 saying why there is none. */
  async open(secret: string): Promise<ConsoleSessionRecord> {
    const session = await this.store.findBySecretHash(secretHash(secret));
    if (!session) throw new ApiError("token_invalid", "The session cookie names no session.");
    const at = this.now();
    if (session.endedAt !== null) {
      throw sessionEnded(ENDED_BECAUSE[session.endedReason ?? "ended_by_admin"]);
    }
    if (at >= session.expiresAt) throw sessionEnded("This session reached its 30-day limit");
    if (at - session.lastSeenAt >= SESSION_IDLE_MS)
      throw sessionEnded("This session was idle for 12 hours");
    if (at - session.lastSeenAt >= TOUCH_EVERY_MS) await this.store.touch(session.id, at);
    return session;
  }

  /** The user and tenant of a session cookie's secret. */
  async authenticate(secret: string): Promise<UserContext & { session: ConsoleSessionRecord }> {
    const session = await this.open(secret);
    const [user, tenant] = await Promise.all([
      this.tenants.findUser(session.userId),
      this.tenants.findTenant(session.tenantId),
    ]);
    if (!user || !tenant || user.tenantId !== tenant.id)
      throw new ApiError("token_invalid", "The session's user no longer exists.");
    if (user.disabledAt)
      throw new ApiError(
        "user_disabled",
        "This account was disabled by a tenant admin; ask them to enable it.",
      );
    return { user, tenant, session };
  }

  /** Sign-out: ends the session `secret` names, if it is open. */
  async signOut(
    secret: string,
  ): Promise<{ session: ConsoleSessionRecord; email: string; name: string | null } | undefined> {
    const session = await this.store.findBySecretHash(secretHash(secret));
    if (!session || session.endedAt !== null) return undefined;
    if (!(await this.store.end(session.userId, session.id, "signed_out", this.now())))
      return undefined;
    const user = await this.tenants.findUser(session.userId);
    return { session, email: user?.email ?? "", name: user?.displayName ?? null };
  }

  /** The user's sessions that can still sign a request in, newest first. */
  async listActive(userId: string): Promise<ConsoleSessionRecord[]> {
    const at = this.now();
    const open = await this.store.listActive(userId, at);
    return open.filter((session) => at - session.lastSeenAt < SESSION_IDLE_MS);
  }

  end(userId: string, id: string, reason: SessionEndReason): Promise<boolean> {
    return this.store.end(userId, id, reason, this.now());
  }

  endAll(userId: string, reason: SessionEndReason): Promise<number> {
    return this.store.endAll(userId, reason, this.now());
  }
}
