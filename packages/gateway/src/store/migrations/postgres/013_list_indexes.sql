-- Order listings newest first by (created_at, seq) (issue 30): a created_at window, a status and
-- a cursor are then all ranges of one index, so every listing reads at most `limit + 1` index
-- entries whatever the store's size. The two seq-ordered listing indexes they replace served no
-- other query. The unique (partner_id, purchase_order_no) index serves the purchase-order lookup.
DROP INDEX sales_orders_by_partner;
DROP INDEX sales_orders_by_partner_status;
CREATE INDEX sales_orders_by_partner_time ON sales_orders (partner_id, created_at, seq);
CREATE INDEX sales_orders_by_partner_status_time ON sales_orders (partner_id, status, created_at, seq);

-- Order numbers come from partners.orders_issued, bumped in the inserting transaction under the
-- partner row's write lock (the single writer on SQLite), so no two orders of a partner get one
-- number; no query reads (partner_id, partner_seq), and the index cost ~50 bytes per order.
DROP INDEX sales_orders_by_partner_number;

-- An order's events are read per order (webhook payloads, in seq order); nothing reads them per
-- partner. The same index serves retention's per-order check (012), which needs only order_id.
DROP INDEX order_events_by_partner;
DROP INDEX order_events_by_order;
CREATE INDEX order_events_by_order ON order_events (order_id, seq);

-- Webhook claims take turns across endpoints (issue 30): each endpoint's due deliveries and its
-- deliveries in flight are ranges of their own, so one endpoint's backlog is not read to serve
-- another. They replace the store-wide due index the first-come claim read.
DROP INDEX webhook_deliveries_due;
CREATE INDEX webhook_deliveries_due_by_endpoint ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (endpoint_id, locked_until) WHERE state = 'pending';

-- Webhook workers wake on a notification instead of only polling (issue 30): a new outbox event
-- or a queued (or resent) delivery notifies every instance listening on `orderline_webhooks` when
-- its transaction commits. One notification per statement, not per row; payload-free, so
-- PostgreSQL folds those of one transaction into one.
CREATE FUNCTION orderline_webhooks_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('orderline_webhooks', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER order_events_notify AFTER INSERT ON order_events
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify();
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify();
