-- The webhook worker's wake-up (013) fires only when a statement wrote rows. A statement
-- trigger fires even for an INSERT of no rows, and the fan-out's INSERT INTO
-- webhook_deliveries usually queues none (no endpoint subscribed): every fan-out notified
-- again, woke every instance's worker, whose fan-out notified again, so idle gateways looped
-- at hundreds of round trips a second, and each instance woke the others. The transition
-- table says whether the statement inserted anything.
CREATE FUNCTION orderline_webhooks_notify_written() RETURNS trigger LANGUAGE plpgsql AS $$
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
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify_written();
CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON webhook_deliveries
  REFERENCING NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION orderline_webhooks_notify_written();
DROP FUNCTION orderline_webhooks_notify();
