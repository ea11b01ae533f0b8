// Verifies Orderline webhook deliveries with Node 20+ alone (node:crypto, node:http; no packages).
//   ORDERLINE_WEBHOOK_SECRET=whsec_… node verify-webhook.mjs body.json 't=…,v1=…'   # one delivery
//   ORDERLINE_WEBHOOK_SECRET=whsec_… PORT=8787 node verify-webhook.mjs --serve       # a receiver
// With the SDK installed, verifyWebhook from @orderline/partner-sdk does the same in one call.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const TOLERANCE_SECONDS = Number(process.env.ORDERLINE_WEBHOOK_TOLERANCE ?? 300);

/** Returns the event, or throws an Error whose message is the reason. `body` is a Buffer of the raw bytes. */
export function verify(body, header, secret, nowSeconds = Date.now() / 1000) {
  // 1. Parse "t=<unix seconds>,v1=<hex>[,v1=<hex>…]"; entries of other schemes are skipped.
  let t;
  const signatures = [];
  for (const part of (header ?? "").split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && /^\d+$/.test(value ?? "")) t = value;
    if (key === "v1" && /^[0-9a-f]{64}$/i.test(value ?? ""))
      signatures.push(Buffer.from(value, "hex"));
  }
  if (t === undefined || signatures.length === 0) throw new Error("header missing or malformed");
  // 2. HMAC-SHA256 keyed by the secret string over "<t>." + the raw body, as received.
  const expected = createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  // 3. Constant-time comparison; any v1 may match (the gateway sends two during a secret rotation).
  if (!signatures.some((s) => timingSafeEqual(s, expected)))
    throw new Error("no matching signature");
  // 4. Refuse replays: the timestamp must be within the tolerance of now, either way.
  if (Math.abs(nowSeconds - Number(t)) > TOLERANCE_SECONDS)
    throw new Error("timestamp outside the tolerance");
  return JSON.parse(body.toString("utf8"));
}

const secret = process.env.ORDERLINE_WEBHOOK_SECRET;
if (!secret) {
  console.error("set ORDERLINE_WEBHOOK_SECRET (the endpoint's whsec_ secret)");
  process.exit(2);
}

if (process.argv[2] === "--serve") {
  const seen = new Set(); // a real receiver keeps processed event ids in its database
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let event;
      try {
        event = verify(Buffer.concat(chunks), req.headers["orderline-signature"], secret);
      } catch (error) {
        console.log(`rejected: ${error.message}`);
        res.writeHead(400).end();
        return;
      }
      // Acknowledge fast (any 2xx); a retry of an event already handled is acknowledged again.
      console.log(`${seen.has(event.id) ? "duplicate" : "verified"} ${event.id} ${event.type}`);
      seen.add(event.id);
      res.writeHead(204).end();
    });
  });
  server.listen(Number(process.env.PORT ?? 8787), "127.0.0.1", () => {
    console.log(`listening on http://127.0.0.1:${server.address().port}`);
  });
} else {
  const [file, header] = process.argv.slice(2);
  if (!file || !header) {
    console.error(
      "usage: node verify-webhook.mjs BODY_FILE 'ORDERLINE_SIGNATURE_HEADER' | --serve",
    );
    process.exit(2);
  }
  try {
    const event = verify(readFileSync(file), header, secret);
    console.log(`verified ${event.id} ${event.type}`);
  } catch (error) {
    console.log(`rejected: ${error.message}`);
    process.exitCode = 1;
  }
}
