-- The tenant overview's figures (GET /v1/tenant/overview): orders and their amounts per partner,
-- UTC day of creation, current status and currency, kept in step with sales_orders by the
-- writes themselves (one upsert per created group in the batch insert's statement, one two-row
-- upsert per status move in the move's transaction), so the overview reads a few hundred tally
-- rows, never the orders. No tenant column: a partner belongs to one tenant for good, and the
-- overview reads each of the tenant's partners' key range. `day` is the UTC day number
-- (created_at / 86400000); `currency` is '' for an order without one (a key column cannot be
-- NULL); `amount` is the sum of the orders' totals in the currency's minor units
-- (lib/minor-units.ts), 0 for an order with an unpriced line. NUMERIC: a sum never overflows.
CREATE TABLE order_day_totals (
  partner_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  status TEXT NOT NULL,
  currency TEXT NOT NULL,
  orders BIGINT NOT NULL,
  amount NUMERIC NOT NULL,
  PRIMARY KEY (partner_id, day, status, currency)
);

-- The orders already stored, summed exactly (NUMERIC) and rounded half away from zero once per
-- order, as lib/minor-units.ts does. The decimals repeat lib/minor-units.ts.
INSERT INTO order_day_totals (partner_id, day, status, currency, orders, amount)
SELECT partner_id, day, status, currency, count(*), sum(amount)
FROM (
  SELECT o.partner_id, (o.created_at / 86400000)::integer AS day, o.status, coalesce(o.currency, '') AS currency,
    CASE
      WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(o.products) l WHERE jsonb_typeof(l -> 'unit_price') IS DISTINCT FROM 'number') THEN 0
      ELSE coalesce(round(
        (SELECT sum((l ->> 'quantity')::numeric * (l ->> 'unit_price')::numeric) FROM jsonb_array_elements(o.products) l)
        * CASE
            WHEN o.currency IN ('AFN', 'ALL', 'BIF', 'CLP', 'COP', 'DJF', 'GNF', 'HUF', 'IDR', 'IQD', 'IRR', 'ISK', 'JPY',
              'KMF', 'KPW', 'KRW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'PYG', 'RWF', 'SOS', 'SYP', 'UGX',
              'VND', 'VUV', 'XAF', 'XOF', 'XPF', 'YER') THEN 1
            WHEN o.currency IN ('BHD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
            ELSE 100
          END), 0)
    END AS amount
  FROM sales_orders o
) s
GROUP BY partner_id, day, status, currency;
