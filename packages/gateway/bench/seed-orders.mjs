/**
 * Seeds orders straight into a store's tables (one INSERT … SELECT per call), for the growing
 * store benchmark and the list-plan test: a million orders through the API would take an hour
 * here. Orders are spread over `days` days up to `endAt`, one in `statusEvery` is 'accepted',
 * the rest 'received'; partner_seq continues above `firstNumber`. `orderedIds`: ids of 36
 * characters that sort in creation order, as the gateway's UUIDv7 ids do (index sizes as in
 * production); otherwise longer ids in no order.
 */
const DAY = 86_400_000;

/** The statement and its parameters for `dialect` ("sqlite" | "postgres"). */
export function seedOrdersStatement(
  dialect,
  { partnerId, count, firstNumber = 0, endAt, days = 365, statusEvery = 10, orderedIds = false },
) {
  const span = days * DAY;
  const columns =
    "id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, partner_seq";
  const products = `'[{"product_code":"P-1","quantity":1}]'`;
  if (dialect === "postgres") {
    return {
      sql: `INSERT INTO sales_orders (${columns})
        SELECT ${orderedIds ? "'018f0000-0000-7000-8000-' || lpad((i + $3)::text, 12, '0')" : "'seed_' || $1 || '_' || (i + $3)"}, $1, 'SEED-' || (i + $3), 'C-1', 'S-1', 'Seed', 'Seed street 1', ${products}::jsonb,
          CASE WHEN i % $4 = 0 THEN 'accepted' ELSE 'received' END,
          $5::bigint - $6::bigint + (i * $6::bigint / $2), i + $3
        FROM generate_series(1, $2::bigint) AS i`,
      params: [partnerId, count, firstNumber, statusEvery, endAt, span],
    };
  }
  return {
    sql: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
      INSERT INTO sales_orders (${columns})
        SELECT ${orderedIds ? "'018f0000-0000-7000-8000-' || printf('%012d', ? * 0 + i + ?)" : "'seed_' || ? || '_' || (i + ?)"}, ?, 'SEED-' || (i + ?), 'C-1', 'S-1', 'Seed', 'Seed street 1', ${products},
          CASE WHEN i % ? = 0 THEN 'accepted' ELSE 'received' END,
          ? - ? + (i * ? / ?), i + ?
        FROM n`,
    params: [
      count,
      partnerId,
      firstNumber,
      partnerId,
      firstNumber,
      statusEvery,
      endAt,
      span,
      span,
      count,
      firstNumber,
    ],
  };
}
