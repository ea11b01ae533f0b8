-- Wake-ups only for work that was written (they were 013's statement triggers, which fire even
-- for an INSERT of no rows). The fan-out's INSERT INTO webhook_deliveries usually queues none
-- (no endpoint subscribed), yet it notified, woke every instance's webhook worker, whose fan-out
-- notified again: idle gateways looped at hundreds of round trips a second and each instance
-- kept the others busy. The transition table `written` says what the statement inserted.
--
-- Two channels: orderline_webhooks wakes webhook workers (deliveries queued, or outbox rows
-- still to fan out: status changes); orderline_events wakes event-stream readers for every new
-- outbox row. An order's creation queues its deliveries in its own statement and is born
-- dispatched, so without a subscribed endpoint it wakes no webhook worker at all.
CREATE FUNCTION orderline_order_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written) THEN
    PERFORM pg_notify('orderline_events', '');
  END IF;
  IF EXISTS (SELECT 1 FROM written WHERE dispatched_at IS NULL) THEN
    PERFORM pg_notify('orderline_webhooks', '');
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION orderline_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written) THEN
    PERFORM pg_notify('orderline_webhooks', '');
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER order_events_notify ON order_events;
DROP TRIGGER webhook_deliveries_notify ON webhook_deliveries;
CREATE TRIGGER order_events_notify AFTER INSERT ON order_events
  REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_order_events_notify();
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_deliveries_notify();
DROP FUNCTION orderline_webhooks_notify();
