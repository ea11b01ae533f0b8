-- The tenant overview's figures (GET /v1/tenant/overview): orders and their amounts per partner,
-- UTC day of creation, current status and currency, kept in step with sales_orders by the
-- writes themselves (one upsert per order created, in the create's transaction; one two-row
-- upsert per status move, in the move's), so the overview reads a few hundred tally rows, never
-- the orders. No tenant column: a partner belongs to one tenant for good, and the overview reads
-- each of the tenant's partners' key range. `day` is the UTC day number (created_at / 86400000);
-- `currency` is '' for an order without one (a key column cannot be NULL); `amount` is the sum
-- of the orders' totals in the currency's minor units (lib/minor-units.ts), 0 for an order
-- with an unpriced line.
CREATE TABLE order_day_totals (
  partner_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  orders INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  PRIMARY KEY (partner_id, day, status, currency)
) WITHOUT ROWID;

-- The orders already stored. SQLite reads JSON numbers as doubles, so an old order's total is
-- the double product rounded once to minor units: exact for any total below 2^53 minor units
-- except a price whose fraction below the minor unit is exactly one half (orders written from
-- now on are summed exactly, lib/minor-units.ts). The decimals repeat lib/minor-units.ts.
INSERT INTO order_day_totals (partner_id, day, status, currency, orders, amount)
SELECT partner_id, created_at / 86400000, status, coalesce(currency, ''), count(*), sum(amount)
FROM (
  SELECT o.partner_id, o.created_at, o.status, o.currency,
    CASE
      WHEN EXISTS (SELECT 1 FROM json_each(o.products) l WHERE json_extract(l.value, '$.unit_price') IS NULL) THEN 0
      ELSE CAST(round(
        (SELECT total(json_extract(l.value, '$.quantity') * json_extract(l.value, '$.unit_price')) FROM json_each(o.products) l)
        * CASE
            WHEN o.currency IN ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY',
              'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SOS', 'SYP', 'UGX',
              'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') THEN 1
            WHEN o.currency IN ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
            ELSE 100
          END) AS INTEGER)
    END AS amount
  FROM sales_orders o
)
GROUP BY partner_id, created_at / 86400000, status, coalesce(currency, '');
