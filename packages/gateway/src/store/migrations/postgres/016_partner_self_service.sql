-- A delivery's event is an order event or a test event (below): the queue no longer points at
-- order_events only. The worker reads a delivery's event by its type.
ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_id_fkey;

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
