// The conventional peer for the signed-create benchmark (bench/peer.mjs): Express 5 +
// jsonwebtoken + better-sqlite3 doing what the gateway's POST /api/v1/sales-orders does, written
// the way a competent team would (prepared statements, a cached public KeyObject, one
// transaction per order, HS256 tokens), not as a straw man. Never a dependency of the product:
// its packages live in PEER_DEPS (installed by bench/peer.mjs), loaded from there.
//
// env: PEER_DEPS (folder with node_modules), PEER_DB (SQLite file), PEER_SYNCHRONOUS (default|full|normal),
// PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_PUBLIC_KEY (PEM file): the one partner it serves.
// Prints "listening on http://127.0.0.1:PORT".
import {
  createHash,
  createPublicKey,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  verify,
} from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(join(process.env.PEER_DEPS, "package.json"));
const express = require("express");
const jwt = require("jsonwebtoken");
const Database = require("better-sqlite3");

const JWT_SECRET = randomBytes(32);
const JWT_OPTIONS = { algorithms: ["HS256"], issuer: "peer", audience: "partner-api" };
const MAX_SKEW_SECONDS = 300;

const db = new Database(process.env.PEER_DB);
// "default": better-sqlite3's own defaults, what a team gets without tuning (rollback journal,
// synchronous=FULL); otherwise WAL with the synchronous level given, as the gateway runs.
if (process.env.PEER_SYNCHRONOUS !== "default") {
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${process.env.PEER_SYNCHRONOUS === "normal" ? "NORMAL" : "FULL"}`);
}
db.pragma("foreign_keys = ON");
db.exec(`
  CREATE TABLE IF NOT EXISTS partners (
    client_id TEXT PRIMARY KEY, secret_sha256 BLOB NOT NULL, public_key TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1, orders_issued INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE IF NOT EXISTS orders (
    id TEXT PRIMARY KEY, client_id TEXT NOT NULL REFERENCES partners(client_id),
    order_number TEXT NOT NULL, purchase_order_no TEXT, customer_code TEXT NOT NULL,
    site_code TEXT NOT NULL, sales_name TEXT NOT NULL, address TEXT NOT NULL, currency TEXT,
    status TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE UNIQUE INDEX IF NOT EXISTS orders_po ON orders (client_id, purchase_order_no);
  CREATE TABLE IF NOT EXISTS order_lines (
    order_id TEXT NOT NULL REFERENCES orders(id), line_no INTEGER NOT NULL,
    product_code TEXT NOT NULL, quantity REAL NOT NULL, uom TEXT, unit_price REAL, notes TEXT,
    PRIMARY KEY (order_id, line_no));
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    client_id TEXT NOT NULL, idem_key TEXT NOT NULL, request_hash TEXT NOT NULL,
    response TEXT NOT NULL, PRIMARY KEY (client_id, idem_key));
`);
const sha256 = (text) => createHash("sha256").update(text).digest();
db.prepare(
  "INSERT OR REPLACE INTO partners (client_id, secret_sha256, public_key) VALUES (?, ?, ?)",
).run(
  process.env.PEER_CLIENT_ID,
  sha256(process.env.PEER_CLIENT_SECRET),
  readFileSync(process.env.PEER_PUBLIC_KEY, "utf8"),
);

const sql = {
  partner: db.prepare("SELECT * FROM partners WHERE client_id = ?"),
  nextNumber: db.prepare(
    "UPDATE partners SET orders_issued = orders_issued + 1 WHERE client_id = ? RETURNING orders_issued",
  ),
  insertOrder: db.prepare(
    `INSERT INTO orders (id, client_id, order_number, purchase_order_no, customer_code, site_code,
       sales_name, address, currency, status, created_at)
     VALUES (@id, @client_id, @order_number, @purchase_order_no, @customer_code, @site_code,
       @sales_name, @address, @currency, @status, @created_at)`,
  ),
  insertLine: db.prepare(
    `INSERT INTO order_lines (order_id, line_no, product_code, quantity, uom, unit_price, notes)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ),
  idempotent: db.prepare(
    "SELECT request_hash, response FROM idempotency_keys WHERE client_id = ? AND idem_key = ?",
  ),
  remember: db.prepare(
    "INSERT INTO idempotency_keys (client_id, idem_key, request_hash, response) VALUES (?, ?, ?, ?)",
  ),
  byPurchaseOrder: db.prepare(
    "SELECT id, order_number FROM orders WHERE client_id = ? AND purchase_order_no = ?",
  ),
};

// Parsing a PEM on every request is the mistake a competent team does not make.
const publicKeys = new Map();
function publicKeyOf(partner) {
  let key = publicKeys.get(partner.client_id);
  if (key === undefined) {
    key = createPublicKey(partner.public_key);
    publicKeys.set(partner.client_id, key);
  }
  return key;
}

class HttpError extends Error {
  constructor(status, code, detail) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

function authenticate(req, _res, next) {
  const header = req.get("authorization") ?? "";
  if (!header.startsWith("Bearer "))
    throw new HttpError(401, "token_missing", "Bearer token required");
  let claims;
  try {
    claims = jwt.verify(header.slice(7), JWT_SECRET, JWT_OPTIONS);
  } catch {
    throw new HttpError(401, "token_invalid", "The token is invalid or expired");
  }
  const clientId = req.get("x-client-id");
  const timestamp = req.get("x-timestamp");
  const signature = req.get("x-signature");
  if (!clientId || !timestamp || !signature)
    throw new HttpError(
      401,
      "header_missing",
      "X-CLIENT-ID, X-TIMESTAMP and X-SIGNATURE are required",
    );
  if (clientId !== claims.client_id)
    throw new HttpError(401, "client_id_mismatch", "X-CLIENT-ID must match the token");
  const partner = sql.partner.get(clientId);
  if (!partner?.active) throw new HttpError(403, "partner_disabled", "Partner not active");
  if (
    !/^\d{1,11}$/.test(timestamp) ||
    Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS
  )
    throw new HttpError(401, "timestamp_invalid", "X-TIMESTAMP outside the allowed window");
  const ok = verify(
    "sha256",
    Buffer.from(`${clientId}|${timestamp}`),
    publicKeyOf(partner),
    Buffer.from(signature, "base64"),
  );
  if (!ok) throw new HttpError(401, "signature_invalid", "X-SIGNATURE does not verify");
  req.partner = partner;
  next();
}

const isText = (value, max) =>
  typeof value === "string" && value.length > 0 && value.length <= max && /\S/.test(value);
const PRICE = /^\d{1,13}(\.\d{1,4})?$/;

/** The same rules as the gateway's CREATE_ORDER_BODY, by hand; every error listed. */
function validateOrder(body) {
  const errors = [];
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return ["body must be an object"];
  const allowed = new Set([
    "customer_code",
    "site_code",
    "sales_name",
    "address",
    "purchase_order_no",
    "products",
    "currency",
  ]);
  for (const key of Object.keys(body)) if (!allowed.has(key)) errors.push(`${key} is not allowed`);
  for (const [field, max] of [
    ["customer_code", 64],
    ["site_code", 64],
    ["sales_name", 128],
    ["address", 1000],
  ])
    if (!isText(body[field], max)) errors.push(`${field} must be 1-${max} characters`);
  if (body.purchase_order_no != null && !isText(body.purchase_order_no, 64))
    errors.push("purchase_order_no must be 1-64 characters");
  if (body.currency != null && !/^[A-Z]{3}$/.test(body.currency))
    errors.push("currency must be an ISO 4217 code");
  if (!Array.isArray(body.products) || body.products.length < 1 || body.products.length > 500) {
    errors.push("products must hold 1-500 lines");
    return errors;
  }
  const lineKeys = new Set(["product_code", "quantity", "uom", "unit_price", "notes"]);
  body.products.forEach((line, i) => {
    if (typeof line !== "object" || line === null) {
      errors.push(`products[${i}] must be an object`);
      return;
    }
    for (const key of Object.keys(line))
      if (!lineKeys.has(key)) errors.push(`products[${i}].${key} is not allowed`);
    if (!isText(line.product_code, 64))
      errors.push(`products[${i}].product_code must be 1-64 characters`);
    if (typeof line.quantity !== "number" || !(line.quantity > 0) || line.quantity > 1e9)
      errors.push(`products[${i}].quantity must be greater than 0`);
    if (line.uom !== undefined && !isText(line.uom, 16))
      errors.push(`products[${i}].uom must be 1-16 characters`);
    if (line.unit_price !== undefined && !PRICE.test(String(line.unit_price)))
      errors.push(`products[${i}].unit_price must be a price`);
    if (line.notes !== undefined && (typeof line.notes !== "string" || line.notes.length > 500))
      errors.push(`products[${i}].notes must be at most 500 characters`);
  });
  return errors;
}

const createOrder = db.transaction((partner, body, idempotencyKey, requestHash) => {
  const { orders_issued: number } = sql.nextNumber.get(partner.client_id);
  const now = new Date().toISOString();
  const order = {
    id: randomUUID(),
    order_number: `SO-${String(number).padStart(8, "0")}`,
    status: "received",
    client_id: partner.client_id,
    purchase_order_no: body.purchase_order_no ?? null,
    currency: body.currency ?? null,
    customer_code: body.customer_code,
    site_code: body.site_code,
    sales_name: body.sales_name,
    address: body.address,
    created_at: now,
  };
  sql.insertOrder.run(order);
  order.products = body.products.map((line, i) => {
    const stored = {
      line_no: i + 1,
      product_code: line.product_code,
      quantity: line.quantity,
      uom: line.uom ?? null,
      unit_price: line.unit_price === undefined ? null : Number(line.unit_price),
      notes: line.notes ?? null,
    };
    sql.insertLine.run(
      order.id,
      stored.line_no,
      stored.product_code,
      stored.quantity,
      stored.uom,
      stored.unit_price,
      stored.notes,
    );
    return stored;
  });
  order.version = 1;
  order.updated_at = now;
  const response = JSON.stringify({ message: "Sales order created", data: order });
  if (idempotencyKey !== undefined)
    sql.remember.run(partner.client_id, idempotencyKey, requestHash, response);
  return { id: order.id, response };
});

const app = express();
app.disable("x-powered-by");
app.disable("etag");
app.use(express.json({ limit: "1mb" }));

app.post("/api/v1/auth/login", (req, res) => {
  const { client_id: clientId, client_secret: secret } = req.body ?? {};
  const partner = typeof clientId === "string" ? sql.partner.get(clientId) : undefined;
  if (
    !partner ||
    typeof secret !== "string" ||
    !timingSafeEqual(sha256(secret), partner.secret_sha256)
  )
    throw new HttpError(401, "invalid_credentials", "Unknown client or wrong secret");
  const token = jwt.sign({ client_id: clientId }, JWT_SECRET, {
    algorithm: "HS256",
    issuer: "peer",
    audience: "partner-api",
    subject: clientId,
    expiresIn: "1h",
  });
  res.json({ token });
});

app.post("/api/v1/sales-orders", authenticate, (req, res) => {
  if (!req.is("application/json")) throw new HttpError(415, "unsupported_media_type", "JSON only");
  const errors = validateOrder(req.body);
  if (errors.length > 0) throw new HttpError(422, "validation_failed", errors.join("; "));
  const idempotencyKey = req.get("idempotency-key");
  const requestHash =
    idempotencyKey === undefined ? undefined : sha256(JSON.stringify(req.body)).toString("hex");
  if (idempotencyKey !== undefined) {
    const previous = sql.idempotent.get(req.partner.client_id, idempotencyKey);
    if (previous) {
      if (previous.request_hash !== requestHash)
        throw new HttpError(422, "idempotency_key_mismatch", "Key reused with another body");
      res
        .status(201)
        .set("idempotent-replayed", "true")
        .type("application/json")
        .send(previous.response);
      return;
    }
  }
  let created;
  try {
    created = createOrder(req.partner, req.body, idempotencyKey, requestHash);
  } catch (error) {
    if (error.code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
    const existing = sql.byPurchaseOrder.get(req.partner.client_id, req.body.purchase_order_no);
    throw new HttpError(
      409,
      "duplicate_purchase_order",
      `Order ${existing?.order_number} has this purchase_order_no`,
    );
  }
  res
    .status(201)
    .location(`/api/v1/sales-orders/${created.id}`)
    .type("application/json")
    .send(created.response);
});

app.use((error, _req, res, _next) => {
  const status = error.status ?? (error.type === "entity.parse.failed" ? 400 : 500);
  res
    .status(status)
    .type("application/problem+json")
    .send(
      JSON.stringify({
        status,
        code: error.code ?? "error",
        detail: status === 500 ? "Internal error" : error.message,
      }),
    );
});

const server = app.listen(0, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
server.keepAliveTimeout = 65_000;
process.on("SIGTERM", () => server.close(() => db.close()));
