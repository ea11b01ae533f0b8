-- The audit trail (domain/audit/): every audited change as a row, beside its log line, so a
-- tenant's admins can read it (GET /v1/tenant/audit-events) and it is purged by retention
-- (GATEWAY_AUDIT_RETENTION_SECONDS). tenant_id is null for an operator's change that concerns no
-- tenant (a partner without one). Keyset pages go by (tenant_id, seq) newest first.
CREATE TABLE audit_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user', 'partner', 'operator', 'system')),
  actor_id TEXT NOT NULL,
  actor_label TEXT,
  action TEXT NOT NULL,
  subject_type TEXT,
  subject_id TEXT,
  details TEXT NOT NULL,
  source_address TEXT,
  created_at BIGINT NOT NULL
);

CREATE INDEX audit_events_by_tenant ON audit_events (tenant_id, seq);
CREATE INDEX audit_events_by_time ON audit_events (created_at);

-- Team management (tenant-api/team-routes.ts): a user can be disabled (every token refused, on
-- every instance, since each request reads the user row) and shows when they last signed in.
-- An invited user has no password yet (password_hash '') until a set-password link is used.
ALTER TABLE users ADD COLUMN disabled_at BIGINT;
ALTER TABLE users ADD COLUMN last_sign_in_at BIGINT;

-- One-time set-password links (invites and resets): only a SHA-256 of the token is kept; a link
-- is used at most once (used_at set in the transaction that sets the password) and expires.
CREATE TABLE password_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

CREATE INDEX password_links_by_user ON password_links (user_id);
