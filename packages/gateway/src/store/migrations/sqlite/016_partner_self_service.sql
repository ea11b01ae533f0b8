-- A delivery's event is an order event or a test event (below): the queue no longer points at
-- order_events only. SQLite cannot drop a foreign key, so the queue is rebuilt without it; its
-- attempts (which cascade from it) are set aside first and put back after, unchanged.
CREATE TABLE webhook_attempts_016 AS SELECT * FROM webhook_attempts;
DROP TABLE webhook_attempts;

CREATE TABLE webhook_deliveries_016 (
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
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
INSERT INTO webhook_deliveries_016 (endpoint_id, event_id, event_type, state, attempts, next_attempt_at, locked_until, lease, created_at, updated_at)
  SELECT endpoint_id, event_id, event_type, state, attempts, next_attempt_at, locked_until, lease, created_at, updated_at FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_016 RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries (updated_at);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_due_by_endpoint ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (endpoint_id, locked_until) WHERE state = 'pending';

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
INSERT INTO webhook_attempts (id, endpoint_id, event_id, event_type, attempt, status, response_status, duration_ms, error, attempted_at)
  SELECT id, endpoint_id, event_id, event_type, attempt, status, response_status, duration_ms, error, attempted_at FROM webhook_attempts_016;
DROP TABLE webhook_attempts_016;
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, attempted_at);
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (attempted_at);

-- Partner self-service (issue 25). A partner may fire a `webhook.test` event at one of its
-- endpoints: it goes through the delivery queue like any event (signed, attempted, retried,
-- listed, resendable), so it needs an event row of its own that belongs to no order.
CREATE TABLE webhook_test_events (
  id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  endpoint_id TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE INDEX webhook_test_events_by_time ON webhook_test_events (created_at);

-- The partner's refused requests (GET /api/v1/request-log): written for refusals only, where the
-- partner is known (its token verified). `details` is bounded JSON (string-to-sign and hints of a
-- signature failure), never a secret. Rows are purged after 7 days and capped per partner.
CREATE TABLE partner_request_log (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  code TEXT NOT NULL,
  request_id TEXT NOT NULL,
  details TEXT
);

CREATE INDEX partner_request_log_by_client ON partner_request_log (client_id, at);
CREATE INDEX partner_request_log_by_time ON partner_request_log (at);
