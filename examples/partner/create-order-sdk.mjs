// Creates one sales order with @orderline/partner-sdk: login, token refresh, signing, clock-skew
// correction, retries and the Idempotency-Key are the SDK's. Run with the four ORDERLINE_*
// variables set: node create-order-sdk.mjs
import { readFileSync } from "node:fs";
import { createPartnerClient, PartnerApiError } from "@orderline/partner-sdk";

function env(name) {
  if (!process.env[name]) {
    console.error(`set ${name}`);
    process.exit(2);
  }
  return process.env[name];
}
const client = createPartnerClient({
  baseUrl: env("ORDERLINE_BASE_URL"),
  clientId: env("ORDERLINE_CLIENT_ID"),
  clientSecret: env("ORDERLINE_CLIENT_SECRET"),
  privateKey: readFileSync(env("ORDERLINE_PRIVATE_KEY_FILE"), "utf8"),
});

try {
  const order = await client.salesOrders.create({
    customer_code: "CUST-001",
    site_code: "SITE-01",
    sales_name: "Dana Sales",
    address: "1 Harbour Road, Springfield",
    purchase_order_no: null,
    products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
  });
  console.log(JSON.stringify(order, null, 2));
  console.log(`Created ${order.order_number}`);
} catch (error) {
  if (!(error instanceof PartnerApiError)) throw error;
  // Branch on error.code; quote error.requestId to the integration team.
  console.error(`${error.code}: ${error.detail} (request ${error.requestId})`);
  process.exitCode = 1;
}
