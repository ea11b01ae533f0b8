-- The console's server sessions: one row per sign-in of a tenant user in a browser, named by an
-- HttpOnly cookie that carries a random secret. Only the secret's SHA-256 is stored, so a copy of
-- the database signs nobody in. Ending a session (sign-out, an admin, disabling the user) sets
-- ended_at; every instance reads the row on each request, so it stops everywhere at once.
-- Same schema in both dialects. Times are Unix ms.
CREATE TABLE console_sessions (
  -- What admins see and end a session by; not the secret.
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users (id),
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  created_at BIGINT NOT NULL,
  -- Moved forward at most once a minute: the idle timeout counts from here.
  last_seen_at BIGINT NOT NULL,
  -- The absolute end, however active the session is.
  expires_at BIGINT NOT NULL,
  ended_at BIGINT,
  -- 'signed_out', 'ended_by_admin', 'user_disabled', 'password_set'
  ended_reason TEXT,
  user_agent TEXT NOT NULL,
  source_address TEXT NOT NULL
);

CREATE INDEX console_sessions_by_user ON console_sessions (user_id, created_at);
-- The periodic purge deletes rows past expires_at.
CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at);
