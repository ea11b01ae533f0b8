-- Exact prices and an order currency (issue 12). The order lines stay JSON text: each
-- unit_price is written there as its decimal digits (at most 4 decimal places, checked by the
-- API) and read back from them, never through a REAL column, so the text is the exact decimal
-- and existing rows need no change. Orders gain an optional ISO 4217 currency.

ALTER TABLE sales_orders ADD COLUMN currency TEXT CHECK (currency IS NULL OR (length(currency) = 3 AND currency = upper(currency)));
