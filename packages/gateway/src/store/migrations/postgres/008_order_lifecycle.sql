-- The order lifecycle (docs/gateway/order-lifecycle.md): an order's status moves, each move
-- bumps its version (the ETag tenants send back in If-Match) and leaves one history row saying
-- who moved it, when, from which status to which, and why. Existing orders start at version 1.

ALTER TABLE sales_orders ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

-- NULL until the first status change: the order is as it was created.
ALTER TABLE sales_orders ADD COLUMN updated_at BIGINT;

CREATE TABLE order_history (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES sales_orders (id),
  from_status TEXT NOT NULL,
  to_status TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('partner', 'user')),
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  reason TEXT,
  at BIGINT NOT NULL
);

CREATE INDEX order_history_by_order ON order_history (order_id, seq);

-- The partner listing filtered by status stays an index range scan.
CREATE INDEX sales_orders_by_partner_status ON sales_orders (partner_id, status, seq);
