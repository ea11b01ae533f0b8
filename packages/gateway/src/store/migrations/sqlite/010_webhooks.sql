-- Signed webhooks (docs/gateway/api.md#webhooks): a partner's endpoints, the deliveries of
-- outbox events to them (the work queue several instances share) and every attempt made.

-- `events` is a JSON array of event types or ["*"]; types come from a fixed list of
-- `order.<word>` names, so the fan-out can match `"<type>"` in the text in both dialects.
-- The secrets are sealed (AES-256-GCM, lib/seal.ts); the previous one signs too until
-- `previous_secret_until` (rotation grace).
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_until BIGINT,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  last_success_at BIGINT,
  failing_since BIGINT
);

CREATE INDEX webhook_endpoints_by_partner ON webhook_endpoints (partner_id, created_at);

-- The outbox rows not yet fanned out to endpoints. Marking rows (instead of keeping a cursor)
-- cannot skip an event whose transaction committed after one with a higher seq.
ALTER TABLE order_events ADD COLUMN dispatched_at BIGINT;
UPDATE order_events SET dispatched_at = created_at;
CREATE INDEX order_events_undispatched ON order_events (seq) WHERE dispatched_at IS NULL;

-- One row per (endpoint, event): the queue. A worker claims due rows by setting `locked_until`
-- (a lease) and `lease` (its claim's token) with FOR UPDATE SKIP LOCKED, so one instance at a
-- time delivers an event; a dead instance's lease runs out and another takes the row over.
-- `created_at` starts the retry window (a resend starts it again).
CREATE TABLE webhook_deliveries (
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL REFERENCES order_events (id),
  event_type TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  locked_until BIGINT NOT NULL DEFAULT 0,
  lease TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (endpoint_id, event_id)
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries (updated_at);

CREATE TABLE webhook_attempts (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_status INTEGER,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  attempted_at BIGINT NOT NULL,
  FOREIGN KEY (endpoint_id, event_id) REFERENCES webhook_deliveries (endpoint_id, event_id) ON DELETE CASCADE
);

CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, attempted_at);
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (attempted_at);
