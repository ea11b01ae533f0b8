-- Staff find an order by the number its partner quotes (SO-00000123). Numbers count per partner,
-- so a tenant's lookup is one index probe per partner: (partner_id, partner_seq) for orders
-- numbered since 006, the primary key (seq) for older orders, whose number is their seq. Not
-- unique: numbers are kept unique by partners.orders_issued (013), and an index build must not
-- fail on a store written before that.
CREATE INDEX sales_orders_by_partner_number ON sales_orders (partner_id, partner_seq);
