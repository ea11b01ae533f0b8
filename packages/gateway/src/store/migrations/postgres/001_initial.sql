-- Partners, their RSA public keys, the gateway's JWT signing keys, refresh bookkeeping and sales
-- orders (PostgreSQL dialect; migrations/sqlite/001_initial.sql is the same schema for SQLite).
-- Times are Unix ms.

CREATE TABLE partners (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  secret_version INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE partner_keys (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  fingerprint TEXT NOT NULL,
  public_key_pem TEXT NOT NULL,
  bits INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  UNIQUE (partner_id, fingerprint)
);

CREATE TABLE signing_keys (
  kid TEXT PRIMARY KEY,
  alg TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  private_key_sealed TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  retired_at BIGINT
);

CREATE TABLE token_refreshes (
  jti TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  new_jti TEXT NOT NULL,
  refreshed_at BIGINT NOT NULL
);

CREATE TABLE sales_orders (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  purchase_order_no TEXT,
  customer_code TEXT NOT NULL,
  site_code TEXT NOT NULL,
  sales_name TEXT NOT NULL,
  address TEXT NOT NULL,
  products TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (partner_id, purchase_order_no)
);

CREATE INDEX sales_orders_by_partner ON sales_orders (partner_id, seq);

-- The key row is written before its order in the same transaction (it is the lock that makes
-- a racing duplicate wait), so the reference to the order is checked at commit.
CREATE TABLE idempotency_keys (
  partner_id TEXT NOT NULL REFERENCES partners (id),
  idem_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  order_id TEXT NOT NULL REFERENCES sales_orders (id) DEFERRABLE INITIALLY DEFERRED,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (partner_id, idem_key)
);
