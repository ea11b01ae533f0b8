-- Login sessions revoked as a whole (a refresh token presented twice revokes every token of its
-- `sid` chain), and the previous partner secret kept, hashed, for a rotation's grace period.
-- Same schema in both dialects. Times are Unix ms.

CREATE TABLE revoked_sessions (
  sid TEXT PRIMARY KEY,
  -- 'partner:<partner id>' or 'user:<user id>'
  subject TEXT NOT NULL,
  revoked_at BIGINT NOT NULL,
  -- When the last token the session could still hold has expired; the row is useless after.
  expires_at BIGINT NOT NULL
);

CREATE INDEX revoked_sessions_by_subject ON revoked_sessions (subject, expires_at);
-- The periodic purge (store/purge.ts) deletes rows past expires_at.
CREATE INDEX revoked_sessions_by_expiry ON revoked_sessions (expires_at);

ALTER TABLE partners ADD COLUMN previous_secret_hash TEXT;
ALTER TABLE partners ADD COLUMN previous_secret_until BIGINT;
