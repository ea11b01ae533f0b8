-- An email is unique among signed-up accounts (those with a password: sign-in finds the user by
-- email alone) and within a tenant, but an invite that nobody has accepted yet holds it in its
-- tenant only: another tenant's invite neither learns of it nor is blocked by it, so no tenant
-- can squat a future hire's address (docs/decisions.md).
ALTER TABLE users DROP CONSTRAINT users_email_key;
ALTER TABLE users ADD CONSTRAINT users_tenant_email UNIQUE (tenant_id, email);
CREATE UNIQUE INDEX users_signed_up_email ON users (email) WHERE password_hash <> '';
