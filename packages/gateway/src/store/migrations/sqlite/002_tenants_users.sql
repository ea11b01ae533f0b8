-- Tenants (companies using the order system), their users, their vocabulary overrides per
-- namespace and language, user-token refresh bookkeeping and the per-account login throttle;
-- partners gain the tenant their orders go to. Same schema in both dialects. Times are Unix ms.

CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  credential_version INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  language TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE INDEX users_by_tenant ON users (tenant_id);

CREATE TABLE user_token_refreshes (
  jti TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users (id),
  new_jti TEXT NOT NULL,
  refreshed_at BIGINT NOT NULL
);

-- Keyed by a keyed hash of the e-mail address, whether or not an account has it, so the
-- throttle answers alike for unknown addresses and stores no address in clear.
CREATE TABLE login_failures (
  account_key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failed_at BIGINT NOT NULL
);

CREATE TABLE tenant_overrides (
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  namespace TEXT NOT NULL,
  language TEXT NOT NULL,
  overrides TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  updated_by TEXT,
  PRIMARY KEY (tenant_id, namespace, language)
);

ALTER TABLE partners ADD COLUMN tenant_id TEXT REFERENCES tenants (id);

CREATE INDEX partners_by_tenant ON partners (tenant_id);
