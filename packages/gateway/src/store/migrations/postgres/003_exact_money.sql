-- Exact prices and an order currency (issue 12). The order lines become jsonb, whose numbers
-- PostgreSQL keeps as NUMERIC: every unit_price is an exact decimal in the database, and the
-- existing JSON text converts without loss (each number is parsed as numeric, not as a float).
-- New lines must have at most 4 decimal places; older rows are kept exactly as they were sent.
-- Orders gain an optional ISO 4217 currency (the API checks it against the code list).

ALTER TABLE sales_orders ALTER COLUMN products TYPE jsonb USING products::jsonb;

ALTER TABLE sales_orders ADD CONSTRAINT sales_orders_price_scale
  CHECK (NOT jsonb_path_exists(products, '$[*].unit_price ? (@.type() == "number" && @ * 10000 != (@ * 10000).floor())'))
  NOT VALID;

ALTER TABLE sales_orders ADD COLUMN currency TEXT CHECK (currency ~ '^[A-Z]{3}$');
