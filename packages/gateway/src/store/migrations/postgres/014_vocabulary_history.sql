-- Per-key history of a tenant's vocabulary (issue 27): every change of one key in one language,
-- with the word after it (NULL: back to the standard text), who and when, so an admin can see
-- and put back an earlier word. Written in the transaction that changes tenant_overrides.
CREATE TABLE vocabulary_history (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants (id),
  namespace TEXT NOT NULL,
  language TEXT NOT NULL,
  key TEXT NOT NULL,
  text TEXT,
  change TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  changed_by TEXT
);

-- A key's history is read newest first, in every language at once.
CREATE INDEX vocabulary_history_by_key ON vocabulary_history (tenant_id, namespace, key, id);
