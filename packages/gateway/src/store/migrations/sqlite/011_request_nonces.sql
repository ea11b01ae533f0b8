-- Signed requests that change state, remembered while their X-TIMESTAMP is inside the allowed
-- window (auth/replay-guard.ts): an exact replay finds its key here and is refused on every
-- instance. `nonce_key` is a SHA-256 over client_id, method, target, body digest, timestamp and
-- signature; a row is useless once `expires_at` (the window's end for its timestamp) passed.
CREATE TABLE request_nonces (
  nonce_key TEXT PRIMARY KEY,
  expires_at BIGINT NOT NULL
);

CREATE INDEX request_nonces_by_expiry ON request_nonces (expires_at);
