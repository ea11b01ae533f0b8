// Logs in and creates one sales order signed with signature version 2, with Node 20+ alone
// (fetch and node:crypto, no packages). Run with the four ORDERLINE_* variables set:
//   node create-order-node.mjs
import { createHash, randomUUID, sign } from "node:crypto";
import { readFileSync } from "node:fs";

function env(name) {
  if (!process.env[name]) {
    console.error(`set ${name}`);
    process.exit(2);
  }
  return process.env[name];
}
const baseUrl = env("ORDERLINE_BASE_URL");
const clientId = env("ORDERLINE_CLIENT_ID");
const clientSecret = env("ORDERLINE_CLIENT_SECRET");
const privateKey = readFileSync(env("ORDERLINE_PRIVATE_KEY_FILE"), "utf8");

// 1. Log in: client credentials for a 12-hour token. The login is signed like an order
//    (client_id|timestamp): it proves the key, so failed logins of someone guessing the secret
//    elsewhere never throttle it.
const loginTimestamp = String(Math.floor(Date.now() / 1000));
const loginSignature = sign(
  "sha256",
  Buffer.from(`${clientId}|${loginTimestamp}`),
  privateKey,
).toString("base64");
const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    "x-client-id": clientId,
    "x-timestamp": loginTimestamp,
    "x-signature": loginSignature,
  },
  body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
});
const session = await login.json();
if (!login.ok) throw new Error(`login failed: ${session.code}: ${session.detail}`);

// 2. The exact bytes to send; the signature covers their SHA-256.
const body = JSON.stringify({
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Dana Sales",
  address: "1 Harbour Road, Springfield",
  purchase_order_no: null,
  products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
});
const method = "POST";
const target = "/api/v1/sales-orders";
// Unix milliseconds: two identical orders sent in one second are then two requests, not a
// replay the gateway refuses (409 request_replayed).
const timestamp = String(Date.now());
const digest = createHash("sha256").update(body).digest("hex");

// 3. Version 2 string-to-sign: six lines joined by "\n", no trailing newline.
const stringToSign = ["v2", clientId, timestamp, method, target, digest].join("\n");
const signature = sign("sha256", Buffer.from(stringToSign), privateKey).toString("base64");

// 4. Send it, with an Idempotency-Key so that a retry after a lost answer cannot create twice.
const response = await fetch(`${baseUrl}${target}`, {
  method,
  headers: {
    "content-type": "application/json",
    authorization: `Bearer ${session.token}`,
    "x-client-id": clientId,
    "x-timestamp": timestamp,
    "x-signature-version": "2",
    "x-signature": signature,
    "idempotency-key": randomUUID(),
  },
  body,
});
console.log(JSON.stringify(await response.json(), null, 2));
console.log(`HTTP ${response.status}`);
if (response.status !== 201) process.exitCode = 1;
