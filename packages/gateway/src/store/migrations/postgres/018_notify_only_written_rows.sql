-- Webhook workers are woken only by rows actually written (issue 30). A statement-level trigger
-- fires even when its INSERT wrote nothing, and the worker's own dispatch statement inserts
-- deliveries through a CTE on every round, usually none: each round notified every instance,
-- which ran another round, so an idle instance (two of them, each other) looped without pause.
-- The transition table tells a statement that wrote rows from one that wrote none.
CREATE OR REPLACE FUNCTION orderline_webhooks_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written) THEN
    PERFORM pg_notify('orderline_webhooks', '');
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER order_events_notify ON order_events;
CREATE TRIGGER order_events_notify AFTER INSERT ON order_events
  REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify();
DROP TRIGGER webhook_deliveries_notify ON webhook_deliveries;
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify();
