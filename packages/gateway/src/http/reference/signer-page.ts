/**
 * The in-page signer at /docs/signer: a partner pastes its private key, and the page signs and
 * sends a request to this gateway with WebCrypto. The key is read only by the page's script and
 * never sent anywhere; the page's Content-Security-Policy allows requests to this gateway only.
 */

const SAMPLE_BODY = JSON.stringify(
  {
    customer_code: "CUST-001",
    site_code: "SITE-01",
    sales_name: "Dana Sales",
    address: "1 Harbour Road, Springfield",
    purchase_order_no: null,
    products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
  },
  null,
  2,
);

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const SIGNER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SIGNER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Orderline Partner API: sign and send a request</title>
<style>
  body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1b2430; }
  header { background: #1d4f7a; color: #fff; padding: 14px 24px; }
  header a { color: #dbe9f5; }
  main { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(320px, 1fr); gap: 24px; padding: 24px; }
  label { display: block; font-weight: 600; margin-top: 12px; }
  input, select, textarea { width: 100%; box-sizing: border-box; font: 13px ui-monospace, Menlo, Consolas, monospace; padding: 6px; }
  textarea { min-height: 120px; }
  button { margin-top: 14px; margin-right: 8px; padding: 8px 14px; font-weight: 600; }
  pre { background: #f4f6f8; padding: 10px; white-space: pre-wrap; word-break: break-all; min-height: 2em; }
  .note { color: #52606d; font-size: 13px; }
</style>
</head>
<body>
<header><strong>Orderline Partner API</strong>: sign and send a request &middot; <a href="/docs">reference</a></header>
<main>
<section>
  <p class="note">Your private key stays in this page: the script signs with WebCrypto and sends
  only the signature. Paste a PKCS#8 key (<code>BEGIN PRIVATE KEY</code>).</p>
  <label for="client-id">client_id</label><input id="client-id" autocomplete="off">
  <label for="client-secret">client_secret (only to log in)</label><input id="client-secret" type="password" autocomplete="off">
  <button id="login" type="button">Log in</button>
  <label for="token">Token</label><input id="token" autocomplete="off">
  <label for="private-key">Private key (PEM)</label><textarea id="private-key" spellcheck="false"></textarea>
  <label for="version">Signature version</label>
  <select id="version"><option value="2" selected>2: method, path, timestamp and body</option><option value="1">1: client_id|timestamp</option></select>
  <label for="method">Method</label>
  <select id="method"><option>POST</option><option>GET</option></select>
  <label for="path">Path with query</label><input id="path" value="/api/v1/sales-orders">
  <label for="body">Body (sent exactly as written)</label><textarea id="body" spellcheck="false">${escapeHtml(SAMPLE_BODY)}</textarea>
  <button id="send" type="button">Sign and send</button>
</section>
<section>
  <label>String to sign</label><pre id="string-to-sign"></pre>
  <label>Request headers</label><pre id="headers"></pre>
  <label>Response</label><pre id="response"></pre>
</section>
</main>
<script src="/docs/assets/signer.js"></script>
</body>
</html>
`;

export const SIGNER_JS = `"use strict";
const $ = (id) => document.getElementById(id);
const show = (id, text) => { $(id).textContent = text; };

function der(pem) {
  if (/BEGIN RSA PRIVATE KEY/.test(pem)) {
    throw new Error("This is a PKCS#1 key; convert it: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pk8.pem");
  }
  const base64 = pem.replace(/-----[^-]+-----/g, "").replace(/\\s+/g, "");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function signText(pem, text) {
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
  const key = await crypto.subtle.importKey("pkcs8", der(pem), algorithm, false, ["sign"]);
  const signature = await crypto.subtle.sign(algorithm, key, new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(signature)));
}

async function answer(response) {
  const text = await response.text();
  let body = text;
  try { body = JSON.stringify(JSON.parse(text), null, 2); } catch {}
  return "HTTP " + response.status + "\\n" + body;
}

$("login").addEventListener("click", async () => {
  try {
    const response = await fetch("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: $("client-id").value.trim(), client_secret: $("client-secret").value.trim() }),
    });
    const text = await answer(response);
    if (response.ok) $("token").value = JSON.parse(text.slice(text.indexOf("\\n") + 1)).token;
    show("response", text);
  } catch (error) {
    show("response", String(error));
  }
});

$("send").addEventListener("click", async () => {
  try {
    if (!crypto.subtle) throw new Error("WebCrypto needs a secure context: open this page over HTTPS or on localhost.");
    const clientId = $("client-id").value.trim();
    const method = $("method").value;
    const path = $("path").value.trim();
    const body = method === "GET" ? "" : $("body").value;
    const version = $("version").value;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const text = version === "2"
      ? ["v2", clientId, timestamp, method, path, await sha256Hex(body)].join("\\n")
      : clientId + "|" + timestamp;
    const headers = {
      authorization: "Bearer " + $("token").value.trim(),
      "x-client-id": clientId,
      "x-timestamp": timestamp,
      "x-signature": await signText($("private-key").value, text),
    };
    if (version === "2") headers["x-signature-version"] = "2";
    if (body !== "") headers["content-type"] = "application/json";
    if (method === "POST") headers["idempotency-key"] = crypto.randomUUID();
    show("string-to-sign", JSON.stringify(text));
    show("headers", Object.entries(headers).map(([k, v]) => k + ": " + v).join("\\n"));
    show("response", "sending…");
    const response = await fetch(path, { method, headers, ...(body === "" ? {} : { body }) });
    show("response", await answer(response));
  } catch (error) {
    show("response", String(error));
  }
});
`;
