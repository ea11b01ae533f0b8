-- An email is unique among signed-up accounts (those with a password: sign-in finds the user by
-- email alone) and within a tenant, but an invite that nobody has accepted yet holds it in its
-- tenant only: another tenant's invite neither learns of it nor is blocked by it, so no tenant
-- can squat a future hire's address (docs/decisions.md). SQLite cannot drop the inline UNIQUE:
-- the table is rebuilt (the runner turns foreign keys off around this, and checks them after).
CREATE TABLE users_019 (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  credential_version INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
  language TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  disabled_at BIGINT,
  last_sign_in_at BIGINT,
  UNIQUE (tenant_id, email)
);

INSERT INTO users_019 (id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at, disabled_at, last_sign_in_at)
SELECT id, tenant_id, email, password_hash, credential_version, role, language, created_at, updated_at, disabled_at, last_sign_in_at FROM users;

DROP TABLE users;
ALTER TABLE users_019 RENAME TO users;

CREATE INDEX users_by_tenant ON users (tenant_id);
CREATE UNIQUE INDEX users_signed_up_email ON users (email) WHERE password_hash <> '';
