-- Order numbers per partner: an order's number counts that partner's orders only, so it says
-- nothing of other partners' volume. Numbers already handed out never change: existing orders
-- keep partner_seq NULL and are read with their store-wide seq as their number (rows.ts), and
-- each partner continues above its highest. No existing row is rewritten, so the migration is
-- quick on a large table and re-checks no constraint on old rows.

ALTER TABLE sales_orders ADD COLUMN partner_seq INTEGER;

CREATE UNIQUE INDEX sales_orders_by_partner_number ON sales_orders (partner_id, partner_seq);

-- The last number issued to the partner; bumped in the transaction that inserts its orders.
ALTER TABLE partners ADD COLUMN orders_issued INTEGER NOT NULL DEFAULT 0;

UPDATE partners
SET orders_issued = COALESCE((SELECT MAX(seq) FROM sales_orders WHERE partner_id = partners.id), 0);
