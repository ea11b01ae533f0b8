-- Exact prices and an order currency (issue 12). The order lines become jsonb, whose numbers
-- PostgreSQL keeps as NUMERIC: every unit_price is an exact decimal in the database, and the
-- existing JSON text converts without loss (each number is parsed as numeric, not as a float).
-- New lines must have at most 4 decimal places; older rows are kept exactly as they were sent.
-- Orders gain an optional ISO 4217 currency (the API checks it against the code list).

ALTER TABLE sales_orders ALTER COLUMN products TYPE jsonb USING products::jsonb;

-- A trigger on INSERT rather than a CHECK constraint: a CHECK (even NOT VALID) is re-checked
-- whenever a row is updated, so an older order with a 5-place price could then never change
-- status or take a later column's backfill. The rule is for new lines only.
CREATE FUNCTION sales_orders_price_scale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_path_exists(NEW.products, '$[*].unit_price ? (@.type() == "number" && @ * 10000 != (@ * 10000).floor())') THEN
    RAISE EXCEPTION 'sales_orders_price_scale: a unit_price has more than 4 decimal places'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER sales_orders_price_scale BEFORE INSERT ON sales_orders
  FOR EACH ROW EXECUTE FUNCTION sales_orders_price_scale();

ALTER TABLE sales_orders ADD COLUMN currency TEXT CHECK (currency ~ '^[A-Z]{3}$');
