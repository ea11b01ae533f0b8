-- The request signature scheme a partner must use: 1 (the seed's client_id|timestamp, accepted
-- together with version 2) or 2 (method, path, timestamp and body digest signed; version 1 refused).
ALTER TABLE partners ADD COLUMN signature_version INTEGER NOT NULL DEFAULT 1
  CHECK (signature_version IN (1, 2));
