-- A signing key is published (JWKS) from its creation and signs only from `signs_from`, once
-- every JWKS cached before it was published has expired (auth/signing-keys.ts). Existing keys
-- have signed since their creation.
ALTER TABLE signing_keys ADD COLUMN signs_from BIGINT;
UPDATE signing_keys SET signs_from = created_at;

-- Order event retention (store/purge.ts) deletes an order's events together, once none has a
-- delivery left: these find an order's events and an event's deliveries without a scan.
CREATE INDEX order_events_by_order ON order_events (order_id, created_at);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
