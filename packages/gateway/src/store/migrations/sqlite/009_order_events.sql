-- The order outbox: one event per order creation and per status change, written in the
-- transaction that makes the change, so an event exists exactly when its change committed.
-- Webhook delivery reads it in seq order; `id` is the event id receivers de-duplicate on.

CREATE TABLE order_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  partner_id TEXT NOT NULL REFERENCES partners (id),
  order_id TEXT NOT NULL REFERENCES sales_orders (id),
  type TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  reason TEXT,
  created_at BIGINT NOT NULL
);

CREATE INDEX order_events_by_partner ON order_events (partner_id, seq);
