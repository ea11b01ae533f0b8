-- Two-factor sign-in for tenant users (TOTP, RFC 6238). Same schema in both dialects. Times are
-- Unix ms.

-- Who must have a second factor: 'nobody' (default), 'admins' or 'everyone'.
ALTER TABLE tenants ADD COLUMN two_factor_required TEXT NOT NULL DEFAULT 'nobody';

-- A user's authenticator secret, sealed (AES-256-GCM under a key derived from the master key,
-- bound to the user's id), never stored in the clear. Until confirmed_at is set the enrolment is
-- pending and signs nobody in; starting again replaces a pending secret.
CREATE TABLE user_two_factor (
  user_id TEXT PRIMARY KEY REFERENCES users (id),
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  secret_sealed TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  confirmed_at BIGINT,
  -- The newest time step a code was accepted for: a code of that step or an older one is refused
  -- (a code seen once, on screen or on the wire, does not sign in again).
  last_step BIGINT NOT NULL DEFAULT 0
);

-- Single-use recovery codes: only their HMAC under the server's pepper.
CREATE TABLE user_recovery_codes (
  user_id TEXT NOT NULL REFERENCES users (id),
  code_hash TEXT NOT NULL,
  used_at BIGINT,
  PRIMARY KEY (user_id, code_hash)
);

-- What a password sign-in answers when a second factor is due: a random secret (only its
-- SHA-256 here) that a second call redeems with a code, once, within minutes.
CREATE TABLE second_factor_challenges (
  secret_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  -- 'session' (the console's cookie) or 'token' (POST /v1/auth/login)
  purpose TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

-- The periodic purge deletes rows past expires_at.
CREATE INDEX second_factor_challenges_by_expiry ON second_factor_challenges (expires_at);
